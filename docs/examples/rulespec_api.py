from deckgen.rulespec import list_rules, load_rules

spec = load_rules("Karten-Domino")
print(spec.id, spec.aliases, spec.dset.name, spec.path.name if spec.path else None)
print(spec.name("de"), "/", spec.summary("en"))
print(len(spec.clause_ids()), "clauses,", len(spec.decision_clause_ids()), "decide something")
print(spec.clause_text("play.draw_limit", "de"))
for section in spec.sections("en")[:2]:  # Section(id, title, clauses)
    print(section.id, section.title, [clause.id for clause in section.clauses])
print([note.id for note in spec.notes("de")])  # RenderedNote(id, kind, clauses, ...)
print(spec.deal_table()[0])  # DealRow(players, hand_size, dealt, stock, dead, reserve)
print(spec.hand_size(3), spec.teams(3), spec.text_params("en")["draw_limit"])
bigger = spec.with_changes({"turn.draw_limit": 2, "deal.hand_size.2": 8})  # validated
print(bigger.params.turn.draw_limit, bigger.hand_size(2), [s.id for s in list_rules()])
