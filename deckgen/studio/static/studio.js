// deckgen studio: the page's behaviour. Plain JavaScript, no build step.
// Every change goes to the server, which checks it with the deck code, saves the deck
// file and answers with the whole new state; the page then shows that state.
"use strict";

(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);
  const $$ = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  let state = JSON.parse($("#studio-state").textContent);
  const T = JSON.parse($("#studio-text").textContent);
  let current = "cover";

  function fmt(text, values) {
    return text.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));
  }

  function status(text, busy) {
    const el = $("#status");
    el.textContent = text || "";
    el.classList.toggle("busy", !!busy);
  }

  function showErrors(errors) {
    for (const [key, message] of Object.entries(errors || {})) {
      const slotName = slotForKey(key);
      const target = $(`[data-error-for="${CSS.escape(slotName || key)}"]`) ||
        $('[data-error-for="_"]');
      target.textContent = message;
      target.classList.add("shown");
      const field = $(`[data-key="${CSS.escape(key)}"]`);
      if (field) field.setAttribute("aria-invalid", "true");
    }
  }

  function clearErrors(key) {
    const names = key ? [key, slotForKey(key), "_"] : null;
    for (const el of $$("[data-error-for]")) {
      if (!names || names.includes(el.dataset.errorFor)) {
        el.textContent = "";
        el.classList.remove("shown");
      }
    }
    for (const el of $$("[aria-invalid]")) {
      if (!key || el.dataset.key === key) el.removeAttribute("aria-invalid");
    }
  }

  function slotForKey(key) {
    const m = /^faces\.pictures\[(\d+)\]$/.exec(key);
    if (m) return `value-${Number(m[1]) + 1}`;
    for (const s of Object.values(state.slots)) if (s.key === key) return s.name;
    return null;
  }

  function cardFor(slotName) {
    // the card that shows a slot's picture best: a double for a number
    const m = /^value-(\d+)$/.exec(slotName);
    if (m) return `${m[1]}-${m[1]}`;
    return { cover: "cover", imprint: "imprint", logo: "back", back: "back" }[slotName] || current;
  }

  async function send(method, url, body, headers, errorKey, showCard) {
    status(T.saving, true);
    let response;
    try {
      response = await fetch(url, { method, body, headers: headers || {}, credentials: "same-origin" });
    } catch (e) {
      status("");
      showErrors({ [errorKey || "_"]: T.failed });
      return false;
    }
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok || !data || !data.ok) {
      status("");
      showErrors((data && data.errors) || { [errorKey || "_"]: T.failed });
      return false;
    }
    clearErrors(errorKey);
    if (showCard) current = showCard;
    const reload = data.state.max_pip !== state.max_pip;
    state = data.state;
    if (reload) { location.reload(); return true; }
    render();
    status(T.saved);
    document.body.dataset.version = String(state.version);
    return true;
  }

  function sendField(key, value) {
    return send("POST", "/api/field", JSON.stringify({ key, value }),
      { "content-type": "application/json" }, key);
  }

  // -- fields --------------------------------------------------------------------------
  const timers = {};
  for (const el of $$("[data-key]")) {
    const key = el.dataset.key;
    const value = () => (el.type === "checkbox" ? el.checked : el.value);
    if (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && ["text", ""].includes(el.getAttribute("type") || ""))) {
      el.addEventListener("input", () => {
        clearTimeout(timers[key]);
        timers[key] = setTimeout(() => sendField(key, value()), 450);
      });
      el.addEventListener("change", () => {
        clearTimeout(timers[key]);
        sendField(key, value());
      });
    } else if (el.type === "radio") {
      el.addEventListener("change", () => { if (el.checked) sendField(key, el.value); });
    } else {
      el.addEventListener("change", () => sendField(key, value()));
    }
  }

  // -- pictures ------------------------------------------------------------------------
  function upload(slotName, file) {
    const slot = state.slots[slotName];
    status(T.uploading, true);
    return send("PUT", `/api/picture/${slotName}`, file,
      { "content-type": file.type || "application/octet-stream", "x-file-name": encodeURIComponent(file.name) },
      slot ? slot.key : "_", cardFor(slotName));
  }

  for (const el of $$(".slot")) {
    const name = el.dataset.slot;
    const drop = $(".drop", el);
    const input = $("input[type=file]", el);
    input.addEventListener("change", () => { if (input.files[0]) upload(name, input.files[0]); input.value = ""; });
    drop.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); input.click(); } });
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      const file = e.dataTransfer.files[0];
      if (file) upload(name, file);
    });
    $(".crop-btn", el).addEventListener("click", () => openCrop(name));
    $(".remove-btn", el).addEventListener("click", () => {
      send("DELETE", `/api/picture/${name}`, null, {}, state.slots[name].key);
    });
  }

  function quality(slot) {
    const q = slot.quality;
    if (!q) return ["", false];
    if (q.sharp) return [fmt(T.sharp, { have: q.ppi }), false];
    return [fmt(T.too_small, { have: q.ppi, w: q.need_px[0], h: q.need_px[1] }), true];
  }

  function renderSlots() {
    for (const el of $$(".slot")) {
      const slot = state.slots[el.dataset.slot];
      if (!slot) continue;
      const img = $(".thumb", el);
      const has = !!slot.file;
      el.classList.toggle("empty", !has);
      el.classList.toggle("demo", !!slot.demo);
      if (has && img.getAttribute("src") !== slot.url) img.src = slot.url;
      if (has) {
        const f = slot.zoom > 1 ? [0.5, 0.5] : slot.focus;
        img.style.objectPosition = `${f[0] * 100}% ${f[1] * 100}%`;
      }
      if (!has) img.removeAttribute("src");
      // the customer's own file name (never the name the studio stored it under)
      $(".slot-file", el).textContent = has && !slot.demo ? slot.file : "";
      const [text, low] = quality(slot);
      const q = $(".quality", el);
      q.textContent = slot.problem || (slot.demo ? T.sample_note : text);
      el.classList.toggle("low", !!slot.problem || (low && !slot.demo));
      $(".crop-btn", el).hidden = !has || slot.frame.fit !== "cover";
      $(".remove-btn", el).hidden = !has || (slot.demo && slot.name.startsWith("value-"));
    }
    const style = state.fields["faces.style"];
    $("#pictures-panel").classList.toggle("unused", !(style === "pictures" || style === "pictures+pips"));
    $("#size-field").classList.toggle("locked", !!state.fields.profile);
    $("#f-size").disabled = !!state.fields.profile;
    const title = $("#f-title");
    if (title) title.placeholder = state.fields.name || "";
    $("#language-follows").hidden = !state.language_follows_page;
    const language = $('[data-key="language"]');
    if (language && document.activeElement !== language) language.value = state.fields.language;
  }

  // -- previews ------------------------------------------------------------------------
  function cardUrl(card) { return `/api/card/${card.id}.png?k=${card.key}`; }

  function proportions(img) {
    const c = state.card;
    img.style.aspectRatio = `${c.width_mm} / ${c.height_mm}`;
    img.style.borderRadius = `${(c.radius_mm / c.width_mm) * 100}% / ${(c.radius_mm / c.height_mm) * 100}%`;
  }

  function renderPreview() {
    const choice = $("#card-choice");
    if (choice.options.length !== state.cards.length) {
      choice.innerHTML = "";
      for (const card of state.cards) {
        const option = document.createElement("option");
        option.value = card.id;
        option.textContent = card.label;
        choice.appendChild(option);
      }
    }
    if (!state.cards.some((c) => c.id === current)) current = "cover";
    choice.value = current;
    const card = state.cards.find((c) => c.id === current);
    renderNotes();
    const big = $("#big-card");
    proportions(big);
    const url = cardUrl(card);
    if (big.getAttribute("src") !== url) {
      big.classList.add("loading");
      big.src = url;
    }
    const sheet = $("#sheet");
    if (sheet.children.length !== state.cards.length) {
      sheet.innerHTML = "";
      for (const c of state.cards) {
        const img = document.createElement("img");
        img.alt = c.label;
        img.title = c.label;
        img.dataset.card = c.id;
        img.loading = "lazy";
        img.addEventListener("click", () => { current = img.dataset.card; renderPreview(); });
        sheet.appendChild(img);
      }
    }
    state.cards.forEach((c, i) => {
      const img = sheet.children[i];
      img.dataset.card = c.id;
      proportions(img);
      img.classList.toggle("chosen", c.id === current);
      const u = cardUrl(c);
      if (img.getAttribute("src") !== u) img.src = u;
    });
  }

  async function refreshNotes() {
    // the deck code's warnings come with the drawing, so ask for them once it is done
    const response = await fetch("/api/state", { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = await response.json();
    if (fresh.version !== state.version) return;
    state.notes = fresh.notes;
    renderNotes();
  }

  function renderNotes() {
    const list = $("#card-notes");
    list.innerHTML = "";
    for (const text of [...(state.notes[current] || []), ...(state.notes.deck || [])]) {
      const li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    }
  }

  $("#big-card").addEventListener("load", (e) => {
    e.target.classList.remove("loading");
    refreshNotes();
  });
  $("#card-choice").addEventListener("change", (e) => { current = e.target.value; renderPreview(); });
  function step(delta) {
    const i = state.cards.findIndex((c) => c.id === current);
    current = state.cards[(i + delta + state.cards.length) % state.cards.length].id;
    renderPreview();
  }
  $("#prev-card").addEventListener("click", () => step(-1));
  $("#next-card").addEventListener("click", () => step(1));

  // -- downloads -----------------------------------------------------------------------
  async function fetchPrintZip(force) {
    const url = "/download/print.zip" + (force ? "?force=1" : "");
    return fetch(url, { credentials: "same-origin" });
  }

  // the sample checklist: what would still be printed as the sample is, before the files
  const samplesDialog = $("#samples-dialog");

  function goTo(item) {
    const target = item.slot ? $(`[data-slot="${CSS.escape(item.slot)}"]`) : $(`[data-key="${CSS.escape(item.key)}"]`);
    if (!target) return;
    const panel = target.closest("details");
    if (panel) panel.open = true;
    target.scrollIntoView({ block: "center" });
    target.classList.add("attention");
    setTimeout(() => target.classList.remove("attention"), 2500);
    const focusable = item.slot ? $(".drop", target) : target;
    if (focusable) focusable.focus({ preventScroll: true });
  }

  function showSamples() {
    const list = $("#samples-list");
    list.innerHTML = "";
    for (const item of state.samples) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = item.text;
      button.addEventListener("click", () => { samplesDialog.close("back"); goTo(item); });
      li.appendChild(button);
      list.appendChild(li);
    }
    // a deck made for a printer gets no sample content: then there is no "anyway"
    const blocked = state.samples.some((item) => item.blocking);
    $("#samples-anyway").hidden = blocked;
    $("#samples-blocked").hidden = !blocked;
    samplesDialog.returnValue = "";
    samplesDialog.showModal();
  }

  samplesDialog.addEventListener("close", () => {
    if (samplesDialog.returnValue === "anyway") downloadPrint();
  });

  $("#dl-print").addEventListener("click", (e) => {
    e.preventDefault();
    if (state.samples && state.samples.length) { showSamples(); return; }
    downloadPrint();
  });

  async function downloadPrint() {
    clearErrors("_");
    status(T.building, true);
    let response = await fetchPrintZip(false);
    if (response.status === 409) {
      // the deck breaks a rule of the printer's profile: show which, offer to go on
      let data = null;
      try { data = await response.json(); } catch (err) { data = null; }
      const errors = (data && data.errors) || { _: T.failed };
      showErrors(errors);
      if (!(data && data.can_force) || !window.confirm(T.force_print + "\n\n" + errors._)) {
        status("");
        return;
      }
      status(T.building, true);
      response = await fetchPrintZip(true);
    }
    if (!response.ok) {
      status("");
      let data = null;
      try { data = await response.json(); } catch (err) { data = null; }
      showErrors((data && data.errors) || { _: T.failed });
      return;
    }
    const blob = await response.blob();
    const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") || "");
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name ? name[1] : "print.zip";
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 2000);
    status(T.saved);
  }

  // -- crop ----------------------------------------------------------------------------
  const crop = { slot: null, zoom: 1, focus: [0.5, 0.5], size: [1, 1], ratio: 1 };
  const dialog = $("#crop-dialog");

  function cropRegion() {
    // the box-shaped part of the picture that shows, as fractions of the picture
    const [w, h] = crop.size;
    const cw = Math.min(w, h * crop.ratio) / crop.zoom;
    const ch = cw / crop.ratio;
    const left = Math.min(Math.max(crop.focus[0] * w - cw / 2, 0), w - cw);
    const top = Math.min(Math.max(crop.focus[1] * h - ch / 2, 0), h - ch);
    return { x: left / w, y: top / h, w: cw / w, h: ch / h };
  }

  function drawCrop() {
    const r = cropRegion();
    const rect = $("#crop-rect");
    rect.style.left = `${r.x * 100}%`;
    rect.style.top = `${r.y * 100}%`;
    rect.style.width = `${r.w * 100}%`;
    rect.style.height = `${r.h * 100}%`;
    const slot = state.slots[crop.slot];
    const f = slot.frame;
    const page = $("#crop-page");
    const scale = Math.min(360 / f.page[3], 300 / f.page[2]);
    const px = (v) => `${v * scale}px`;
    page.style.width = px(f.page[2]);
    page.style.height = px(f.page[3]);
    for (const [id, b] of [["#crop-box", f.box], ["#crop-trim", f.trim], ["#crop-cut", f.trim], ["#crop-safe", f.safe]]) {
      const el = $(id);
      el.style.left = px(b[0]);
      el.style.top = px(b[1]);
      el.style.width = px(b[2]);
      el.style.height = px(b[3]);
    }
    $("#crop-trim").style.borderRadius = px(f.radius);
    $("#crop-cut").style.borderRadius = px(f.radius);
    const box = $("#crop-box");
    box.style.backgroundImage = `url("${slot.original_url}")`;
    box.style.backgroundSize = `${100 / r.w}% ${100 / r.h}%`;
    box.style.backgroundPosition = `${r.w < 1 ? (r.x / (1 - r.w)) * 100 : 0}% ${r.h < 1 ? (r.y / (1 - r.h)) * 100 : 0}%`;
    const [w, h] = crop.size;
    const boxMm = [f.box[2], f.box[3]];
    const cw = Math.min(w, h * crop.ratio) / crop.zoom;
    const ppi = cw / (boxMm[0] / 25.4);
    const need = [Math.round((boxMm[0] / 25.4) * 300 * crop.zoom), Math.round((boxMm[1] / 25.4) * 300 * crop.zoom)];
    if (w / h > crop.ratio) need[0] = Math.round((need[1] * w) / h); else need[1] = Math.round((need[0] * h) / w);
    drawBadge(slot, f, scale);
    const q = $("#crop-quality");
    const low = ppi < 299.5;
    q.textContent = low ? fmt(T.too_small, { have: Math.round(ppi), w: need[0], h: need[1] }) : fmt(T.sharp, { have: Math.round(ppi) });
    q.classList.toggle("low", low);
  }

  // the pip badge, at the corner the server says the card will put it (one rule, there)
  let badgeAsked = 0;
  let badgeCorner = "top-left";

  function placeBadge(slot, f, scale) {
    const el = $("#crop-badge");
    const b = slot.badge;
    const boxW = f.box[2] * scale;
    const side = b.side * boxW;
    const pad = b.pad * boxW;
    el.style.width = `${side}px`;
    el.style.height = `${side}px`;
    el.style.left = badgeCorner.endsWith("left") ? `${pad}px` : `${boxW - pad - side}px`;
    el.style.top = badgeCorner.startsWith("top") ? `${pad}px` : `${f.box[3] * scale - pad - side}px`;
    el.dataset.corner = badgeCorner;
  }

  function drawBadge(slot, f, scale) {
    const el = $("#crop-badge");
    const b = slot.badge;
    el.hidden = !b;
    $("#crop-badge-note").hidden = !b;
    if (!b) return;
    if (el.dataset.value !== crop.slot) {
      el.innerHTML = "";
      el.style.background = b.face;
      for (const [x, y, r] of b.pips) {
        const pip = document.createElement("span");
        pip.className = "pip";
        pip.style.left = `${(x - r) * 100}%`;
        pip.style.top = `${(y - r) * 100}%`;
        pip.style.width = pip.style.height = `${2 * r * 100}%`;
        pip.style.background = b.colour;
        el.appendChild(pip);
      }
      el.dataset.value = crop.slot;
    }
    placeBadge(slot, f, scale);
    const asked = ++badgeAsked;
    fetch(`/api/badge/${crop.slot}`, {
      method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" },
      body: JSON.stringify({ focus: crop.focus, zoom: crop.zoom }),
    }).then((r) => r.json()).then((data) => {
      if (asked !== badgeAsked || !data || !data.corner) return;
      badgeCorner = data.corner;
      placeBadge(slot, f, scale);
      el.dataset.ready = String(asked);
    }).catch(() => {});
  }

  function openCrop(name) {
    const slot = state.slots[name];
    if (!slot || !slot.file) return;
    crop.slot = name;
    crop.zoom = slot.zoom || 1;
    crop.focus = slot.focus ? slot.focus.slice() : [0.5, 0.5];
    crop.size = slot.size_px;
    crop.ratio = slot.frame.box[2] / slot.frame.box[3];
    $("#crop-img").src = slot.original_url;
    $("#crop-zoom").value = String(crop.zoom);
    drawCrop();
    dialog.showModal();
  }

  $("#crop-zoom").addEventListener("input", (e) => { crop.zoom = Number(e.target.value); drawCrop(); });

  (function dragging() {
    const wrap = $(".source-wrap");
    let active = false;
    function moveTo(e) {
      const b = wrap.getBoundingClientRect();
      crop.focus = [
        Math.min(Math.max((e.clientX - b.left) / b.width, 0), 1),
        Math.min(Math.max((e.clientY - b.top) / b.height, 0), 1),
      ];
      drawCrop();
    }
    wrap.addEventListener("pointerdown", (e) => { active = true; wrap.setPointerCapture(e.pointerId); moveTo(e); });
    wrap.addEventListener("pointermove", (e) => { if (active) moveTo(e); });
    wrap.addEventListener("pointerup", () => { active = false; });
    wrap.addEventListener("keydown", (e) => {
      const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const d = steps[e.key];
      if (!d) return;
      e.preventDefault();
      crop.focus = crop.focus.map((v, i) => Math.min(Math.max(v + d[i] * 0.02, 0), 1));
      drawCrop();
    });
  })();

  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "apply" || !crop.slot) return;
    const slot = state.slots[crop.slot];
    send("POST", `/api/crop/${crop.slot}`, JSON.stringify({ focus: crop.focus, zoom: crop.zoom }),
      { "content-type": "application/json" }, slot.key, cardFor(crop.slot));
  });

  function render() {
    renderSlots();
    renderPreview();
  }
  render();
  document.body.dataset.version = String(state.version);
  document.body.classList.add("ready");
})();
