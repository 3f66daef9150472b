// The web table of `rulecore serve`: a lobby and a table drawn from the JSON protocol alone
// (docs/serve.md). Everything that comes from a cardset or a player is put in the page as text
// (textContent, title), never as markup.
"use strict";

const app = document.getElementById("app");
const whereEl = document.getElementById("where");
const linkEl = document.getElementById("link");
let games = null;          // GET /api/games
let current = null;        // the open table: {id, socket, ...}

// ---------------------------------------------------------------- small helpers
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && key !== "list") node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers["authorization"] = "Bearer " + token;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  let data = null;
  try { data = await response.json(); } catch (e) { data = {error: "bad-answer", message: "the server's answer was not JSON"}; }
  if (!response.ok) {
    const error = new Error(data && data.message ? data.message : "HTTP " + response.status);
    error.status = response.status; error.code = data && data.error; error.data = data;
    throw error;
  }
  return data;
}

function seatKey(matchId) { return "rulecore:seat:" + matchId; }
function savedSeat(matchId) {
  try { return JSON.parse(localStorage.getItem(seatKey(matchId)) || "null"); } catch (e) { return null; }
}
function saveSeat(matchId, seat, token) { localStorage.setItem(seatKey(matchId), JSON.stringify({seat, token})); }

function showError(where, error) {
  where.replaceChildren(el("p", {class: "error", role: "alert", text: error.message || String(error)}));
}

function setHeader(text) { whereEl.textContent = text || ""; }

async function loadGames() {
  if (!games) games = await api("GET", "/api/games");
  return games;
}

// ---------------------------------------------------------------- routing
function route() {
  if (current && current.socket) { current.closed = true; current.socket.close(); }
  current = null;
  linkEl.textContent = "";
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "m" && parts[1] && parts[2] === "join" && parts[3] !== undefined) showJoin(parts[1], Number(parts[3]));
  else if (parts[0] === "m" && parts[1]) showTable(parts[1], parts[2] === "watch");
  else if (parts[0] === "new" && parts[1]) showNewMatch(parts[1]);
  else showLobby();
}
window.addEventListener("hashchange", route);
window.addEventListener("DOMContentLoaded", route);

// ---------------------------------------------------------------- lobby
async function showLobby() {
  setHeader("Lobby");
  app.replaceChildren(el("p", {class: "note", text: "Loading the games…"}));
  try {
    const {games: list} = await loadGames();
    app.replaceChildren(
      el("h1", {text: "Pick a game"}),
      el("ul", {class: "games"}, list.map(g => el("li", {class: "game"},
        el("h2", {text: g.title}),
        el("p", {class: "meta", text: `${g.players.min}–${g.players.max} players`}),
        el("p", {text: g.description}),
        el("a", {class: "button", href: "#/new/" + encodeURIComponent(g.name), text: "New match"}))))
    );
  } catch (e) { showError(app, e); }
}

async function showNewMatch(name) {
  let info;
  try { info = (await loadGames()).games.find(g => g.name === name); } catch (e) { showError(app, e); return; }
  if (!info) { app.replaceChildren(el("p", {class: "error", text: "This server has no such game."})); return; }
  setHeader(info.title);
  const botNames = games.bots;
  const form = el("form", {class: "newmatch"});
  const players = el("select", {name: "players", id: "players"});
  for (let n = info.players.min; n <= info.players.max; n++) players.append(el("option", {value: String(n), text: String(n)}));
  const optionInputs = {};
  const optionRows = info.options.map(o => {
    let input;
    if (o.choices) {
      input = el("select", {id: "option-" + o.name});
      for (const c of o.choices) input.append(el("option", {value: JSON.stringify(c), text: String(c), selected: c === o.default}));
    } else if (typeof o.default === "boolean") {
      input = el("input", {type: "checkbox", id: "option-" + o.name, checked: o.default});
    } else {
      input = el("input", {id: "option-" + o.name, value: String(o.default)});
    }
    optionInputs[o.name] = [input, o];
    return el("label", {class: "row"}, el("span", {text: o.name}), input, o.description ? el("small", {text: o.description}) : null);
  });
  const seatsBox = el("div", {class: "seats"});
  function drawSeats() {
    const n = Number(players.value);
    const old = [...seatsBox.querySelectorAll("select")].map(s => s.value);
    seatsBox.replaceChildren(...Array.from({length: n}, (_, i) => {
      const select = el("select", {id: "seat-" + i, "aria-label": "Seat " + (i + 1)},
        el("option", {value: "open", text: "A person"}),
        botNames.map(b => el("option", {value: "bot:" + b, text: "Bot: " + b})));
      select.value = old[i] || (i === 0 ? "open" : "bot:" + (botNames.includes("greedy") ? "greedy" : botNames[0]));
      return el("label", {class: "row"}, el("span", {text: "Seat " + (i + 1)}), select);
    }));
  }
  players.addEventListener("change", drawSeats);
  drawSeats();
  const seed = el("input", {id: "seed", inputmode: "numeric", placeholder: "random"});
  const status = el("div");
  form.append(
    el("h1", {text: "New match: " + info.title}),
    el("label", {class: "row"}, el("span", {text: "Players"}), players),
    ...optionRows, el("h2", {text: "Seats"}), seatsBox,
    el("label", {class: "row"}, el("span", {text: "Seed"}), seed),
    el("button", {type: "submit", id: "create", class: "primary", text: "Create match"}), status);
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const options = {};
    for (const [key, [input, o]] of Object.entries(optionInputs)) {
      if (o.choices) options[key] = JSON.parse(input.value);
      else if (typeof o.default === "boolean") options[key] = input.checked;
      else options[key] = typeof o.default === "number" ? Number(input.value) : input.value;
    }
    const body = {game: name, players: Number(players.value), options,
                  seats: [...seatsBox.querySelectorAll("select")].map(s => s.value)};
    if (seed.value.trim()) body.seed = Number(seed.value);
    try {
      const made = await api("POST", "/api/matches", body);
      location.hash = "#/m/" + encodeURIComponent(made.match_id);
    } catch (e) { showError(status, e); }
  });
  app.replaceChildren(form);
}

// ---------------------------------------------------------------- joining a seat
async function showJoin(matchId, seat) {
  setHeader("Join a match");
  const name = el("input", {id: "name", maxLength: 40, required: true, autocomplete: "nickname", placeholder: "Your name"});
  const status = el("div");
  const form = el("form", {class: "join"},
    el("h1", {text: "Take seat " + (seat + 1)}),
    el("label", {class: "row"}, el("span", {text: "Name"}), name),
    el("button", {type: "submit", id: "join", class: "primary", text: "Sit down"}),
    el("a", {href: "#/m/" + encodeURIComponent(matchId) + "/watch", text: "or just watch"}), status);
  form.addEventListener("submit", async event => {
    event.preventDefault();
    try {
      const joined = await api("POST", `/api/matches/${encodeURIComponent(matchId)}/seats/${seat}`, {name: name.value.trim()});
      saveSeat(matchId, joined.seat, joined.token);
      location.hash = "#/m/" + encodeURIComponent(matchId);
    } catch (e) { showError(status, e); }
  });
  app.replaceChildren(form);
  name.focus();
}

// ---------------------------------------------------------------- the table
async function showTable(matchId, watchOnly) {
  setHeader("Table");
  const mine = watchOnly ? null : savedSeat(matchId);
  const table = {id: matchId, token: mine ? mine.token : null, events: new Map(), since: 0, payload: null,
                 cards: null, info: null, socket: null, closed: false, retry: 0, sending: false};
  current = table;
  app.replaceChildren(el("p", {class: "note", text: "Connecting…"}));
  try {
    const first = await api("GET", `/api/matches/${encodeURIComponent(matchId)}`, undefined, table.token);
    const [all, cards] = await Promise.all([loadGames(), api("GET", `/api/matches/${encodeURIComponent(matchId)}/cards`)]);
    table.info = all.games.find(g => g.name === first.game) || {zones: [], counters: [], title: first.game};
    table.cards = Object.fromEntries(cards.cards.map(c => [c.id, c]));
    receive(table, first);
  } catch (e) {
    if (e.status === 401 && table.token) { localStorage.removeItem(seatKey(matchId)); return showTable(matchId, true); }
    showError(app, e); return;
  }
  connect(table);
}

function connect(table) {
  if (table.closed || current !== table) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/api/matches/${encodeURIComponent(table.id)}/ws`);
  table.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({token: table.token, since: table.since}));
    table.retry = 0;
    linkEl.textContent = "● live"; linkEl.className = "link live";
  });
  socket.addEventListener("message", message => {
    let data;
    try { data = JSON.parse(message.data); } catch (e) { return; }
    if (data.type === "match") receive(table, data);
  });
  socket.addEventListener("close", () => {
    if (table.closed || current !== table) return;
    linkEl.textContent = "○ reconnecting…"; linkEl.className = "link down";
    table.retry = Math.min(table.retry + 1, 6);
    setTimeout(() => connect(table), 250 * 2 ** table.retry);
  });
}

function receive(table, payload) {
  if (table.payload && payload.version < table.payload.version) return;
  for (const event of payload.events) table.events.set(event.index, event);
  table.since = payload.next_event;
  table.payload = payload;
  draw(table);
}

function nameOf(payload, seat) {
  const s = payload.seats[seat];
  return s && s.name ? s.name : "Seat " + (seat + 1);
}

function cardName(table, id) {
  if (id === null || id === undefined) return "face down";
  const card = table.cards[id];
  return card ? card.name : (table.payload.view && table.payload.view.card_names && table.payload.view.card_names[id]) || id;
}

function showCard(table, id) {
  table.selected = id;
  const box = document.getElementById("detail");
  if (!box) return;
  const card = table.cards[id];
  if (!card) { box.replaceChildren(el("p", {text: "A card face down."})); return; }
  const facts = [];
  if (card.tags.length) facts.push(el("p", {class: "meta", text: "Tags: " + card.tags.join(", ")}));
  for (const [key, value] of Object.entries(card.props)) facts.push(el("p", {class: "meta", text: `${key}: ${Array.isArray(value) ? value.join(", ") : value}`}));
  if (card.scoring.length) facts.push(el("p", {class: "meta", text: "Scoring: " + card.scoring.join(", ")}));
  box.replaceChildren(el("h3", {text: card.name}), el("p", {class: "cardtext", text: card.text || "(no text)"}), ...facts);
}

function zoneInfo(table, key) {
  const [name, rest] = key.split("/");
  const zone = table.info.zones.find(z => z.name === name) || {name, label: name, owner: rest === undefined ? "none" : "player"};
  return {zone, owner: zone.owner === "player" ? Number(rest) : null, slot: zone.owner === "none" && rest !== undefined ? rest : null};
}

async function act(table, option) {
  if (table.sending) return;
  table.sending = true;
  const p = table.payload;
  const status = document.getElementById("decision-status");
  try {
    await api("POST", `/api/matches/${encodeURIComponent(table.id)}/actions`, {action: option.id, version: p.version}, table.token);
    if (status) status.textContent = "";
  } catch (e) {
    if (status) status.textContent = e.code === "stale" ? "The table changed first; here it is again." : e.message;
    try { receive(table, await api("GET", `/api/matches/${encodeURIComponent(table.id)}?since=${table.since}`, undefined, table.token)); } catch (e2) { /* the socket will bring it */ }
  } finally { table.sending = false; }
}

function drawZone(table, key, zone, refs) {
  const {zone: info, slot} = zoneInfo(table, key);
  const label = info.label === info.name ? info.name.replace(/_/g, " ") : info.label;
  const title = slot !== null ? `${label} ${slot}` : label;
  const cards = el("div", {class: "cards"});
  if (zone.cards) {
    zone.cards.forEach((id, index) => {
      const options = refs.filter(r => r.zone === key && r.index === index);
      const marks = zone.marks && zone.marks[index] ? zone.marks[index].join(", ") : "";
      const card = el("button", {type: "button", class: "card" + (id === null ? " down" : "") + (options.length ? " choosable" : ""),
        title: id !== null && table.cards[id] ? (table.cards[id].text || table.cards[id].name) : "",
        "data-card": id === null ? "" : id, "data-zone": key, "data-index": String(index),
        onclick: () => {
          if (id !== null) showCard(table, id);
          if (options.length === 1) act(table, options[0].option);
          else if (options.length > 1) document.querySelectorAll(".option").forEach(b => b.classList.toggle("hint", options.some(o => o.option.id === Number(b.dataset.id))));
        }}, el("span", {class: "name", text: cardName(table, id)}), marks ? el("span", {class: "marks", text: marks}) : null);
      cards.append(card);
    });
    if (!zone.cards.length) cards.append(el("span", {class: "empty", text: "empty"}));
  } else {
    cards.append(el("span", {class: "stack", text: `${zone.count} hidden`}));
    for (const id of zone.face_up || []) cards.append(el("button", {type: "button", class: "card", title: table.cards[id] ? table.cards[id].text : "", onclick: () => showCard(table, id)}, el("span", {class: "name", text: cardName(table, id)})));
  }
  return el("section", {class: "zone", "data-zone": key}, el("h4", {}, el("span", {text: title}), el("small", {text: ` ${zone.count}`})), cards);
}

function counterText(view, seat) {
  const out = [];
  for (const [name, value] of Object.entries(view.counters)) {
    if (Array.isArray(value) && seat !== null) out.push(`${name} ${value[seat]}`);
    else if (!Array.isArray(value) && typeof value === "object" && value !== null && seat !== null && String(seat) in value) out.push(`${name} ${value[String(seat)]}`);
    else if (typeof value === "number" && seat === null) out.push(`${name} ${value}`);
  }
  return out.join(" · ");
}

function draw(table) {
  const p = table.payload;
  app.dataset.version = String(p.version);
  app.dataset.status = p.status;
  app.dataset.seat = p.seat === null ? "" : String(p.seat);
  setHeader(table.info.title || p.game);
  const view = p.view;
  const mine = p.seat;
  const parts = [];
  // who sits where, and the links to share
  if (p.status === "waiting") {
    parts.push(el("section", {class: "waiting"},
      el("h2", {text: "Waiting for players"}),
      el("ul", {class: "share"}, p.seats.map(s => {
        const link = `${location.origin}${location.pathname}#/m/${encodeURIComponent(p.match_id)}/join/${s.seat}`;
        if (s.kind === "bot") return el("li", {text: `Seat ${s.seat + 1}: ${s.name}`});
        if (s.taken) return el("li", {text: `Seat ${s.seat + 1}: ${s.name}` + (s.seat === mine ? " (you)" : "")});
        return el("li", {}, el("span", {text: `Seat ${s.seat + 1}: open — share `}),
          el("input", {class: "sharelink", readOnly: true, value: link, "aria-label": `Link to seat ${s.seat + 1}`}),
          mine === null ? el("a", {class: "button", href: `#/m/${encodeURIComponent(p.match_id)}/join/${s.seat}`, text: "Sit here"}) : null);
      }))));
  }
  if (p.status === "failed") parts.push(el("p", {class: "error", text: "This match cannot go on: " + (p.reason || "")}));
  if (view) {
    const deciding = view.decision ? view.decision.player : null;
    const status = view.terminal ? resultText(p) : deciding === mine ? "Your turn" : deciding !== null ? `${nameOf(p, deciding)} is deciding` : "";
    parts.push(el("p", {class: "status" + (deciding === mine && !view.terminal ? " yours" : ""), id: "status", text: status}));
    if (mine === null) parts.push(el("p", {class: "note", text: "You are watching: you see what every player may see."}));
    // the decision
    const refs = [];
    if (p.decision) {
      p.decision.options.forEach(option => {
        const r = option.ref;
        for (const c of r.kind === "card" ? [r] : r.kind === "cards" ? r.cards : []) if (c.zone !== undefined && c.index !== undefined) refs.push({zone: c.zone, index: c.index, option});
      });
      parts.push(el("section", {class: "decision", id: "decision"},
        el("h3", {text: p.decision.prompt}),
        el("div", {class: "options"}, p.decision.options.map(o => el("button", {type: "button", class: "option", "data-id": String(o.id), text: o.label, onclick: () => act(table, o)}))),
        el("p", {class: "error", id: "decision-status", role: "alert"})));
    }
    // shared zones, then each seat's
    const shared = [], bySeat = Array.from({length: p.players}, () => []);
    for (const [key, zone] of Object.entries(view.zones)) {
      const {owner} = zoneInfo(table, key);
      (owner === null ? shared : bySeat[owner]).push(drawZone(table, key, zone, refs));
    }
    const sharedCounters = counterText(view, null);
    parts.push(el("section", {class: "shared"}, el("h2", {text: "Table" + (view.round ? ` — ${p.view.phase || ""} · round ${view.round}` : "")}),
      sharedCounters ? el("p", {class: "counters", text: sharedCounters}) : null, el("div", {class: "zones"}, shared)));
    const order = mine === null ? [...Array(p.players).keys()] : [mine, ...[...Array(p.players).keys()].filter(s => s !== mine)];
    for (const seat of order) {
      const seatInfo = p.seats[seat];
      const label = nameOf(p, seat) + (seat === mine ? " (you)" : seatInfo.kind === "bot" ? " (bot)" : "");
      parts.push(el("section", {class: "player" + (seat === deciding ? " deciding" : "") + (seat === mine ? " me" : ""), "data-seat": String(seat)},
        el("h2", {}, el("span", {text: label}), view.turn_player === seat ? el("small", {class: "turn", text: " · turn"}) : null),
        el("p", {class: "counters", text: counterText(view, seat)}), el("div", {class: "zones"}, bySeat[seat])));
    }
  }
  parts.push(el("aside", {class: "detail", id: "detail"}, el("p", {class: "note", text: "Tap or hover a card to read it."})));
  const log = el("ol", {class: "log", id: "log"}, [...table.events.keys()].sort((a, b) => a - b).map(i => el("li", {class: "event " + table.events.get(i).type, text: table.events.get(i).text})));
  parts.push(el("section", {class: "events"}, el("h2", {text: "What happened"}), log));
  app.replaceChildren(...parts);
  log.scrollTop = log.scrollHeight;
  if (table.selected !== undefined) showCard(table, table.selected);  // the card being read stays
}

function resultText(p) {
  const result = p.view.result || {};
  const winners = (result.winners || []).map(s => nameOf(p, s));
  let text = "The game is over. " + (winners.length ? "Winner: " + winners.join(", ") : "Nobody wins");
  if (result.totals) text += " — totals: " + result.totals.map((t, s) => `${nameOf(p, s)} ${t}`).join(", ");
  return text;
}
