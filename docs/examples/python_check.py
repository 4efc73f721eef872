import deckgen

check = deckgen.check_rules("two-player", rounds=5_000, seed=1, workers=1)
print("verdict:", check.verdict, "exit code", check.exit_code)
stats = check.report["players"]["2"]["stats"]
print("rounds:", stats["rounds"], f"turns a round: {stats['turns_per_round']['mean']:.1f}")
paths = check.write(json_path="check.json", md_path="check.md")
print("wrote", *sorted(p.name for p in paths if not p.name.endswith(".record.json")))
booklets = deckgen.make_booklet("two-player", "booklet", langs=["en"], check_report=check.report)
print("wrote", *(p.name for p in booklets))
