// A party (#/party/CODE): friends at one table. Without a seat in it on this device, the
// invite page asks for a name and joins; with one, the party's lobby: the invite link and the
// code to read aloud, who is in, who is ready, the house rules (the host changes them), a
// program online to invite (the host), and Start. Once the host starts, everyone goes to the
// table with the same token.
import { askToSignIn, onAccount, signedIn, whenKnown } from "./account.js";
import { botBadgeFor } from "./account_badge.js";
import { RANKED_DEFAULT_TIMER } from "./account_model.js";
import { getBots, getOptions, getParty, inviteBot, joinParty, PartyConnection } from "./api.js";
import { t } from "./i18n.js";
import { h, fill, connectionLost, noticePage as notice, setConnectionStatus as setConnection, store, seatKey, LAST_TABLE } from "./util.js";
import {
  hostName,
  isHost,
  me,
  memberMarks,
  partyKey,
  partyReference,
  partyRefusalText,
  problemText,
  rankedLine,
  rankedSettings,
  readyClearedNote,
  spelled,
  startProblem,
} from "./party/model.js";
import { keepPartySeat } from "./party/seat.js";
import { enableControl, ruleControl } from "./rule_form.js";
import { presetName, presetSummary } from "./rule_words.js";

const NAME_KEY = "rummykit.name";

/** Where the party page sends you once the party has a table. */
function goToTable(view, token) {
  if (token) {
    store.setRaw(seatKey(view.table), token);
    store.setRaw(LAST_TABLE, view.table);
    location.hash = `#/table/${encodeURIComponent(view.table)}`;
  } else {
    location.hash = `#/watch/${encodeURIComponent(view.table)}`;
  }
}

export function mountParty(root, rawCode) {
  const { code, path } = partyReference(rawCode);
  document.title = t("party.title", { code });
  let cleanup = () => {};
  const show = (mount) => {
    cleanup();
    cleanup = mount() || (() => {});
  };
  const showInvite = () => show(() => mountInvite(root, code, path, { joined: showMember, watch: showWatch }));
  const showMember = () => show(() => mountLobby(root, code, path, store.get(partyKey(code)), showInvite));
  const showWatch = () => show(() => mountLobby(root, code, path, null, showInvite));
  const held = store.get(partyKey(code));
  if (held && held.token) showMember();
  else showInvite();
  return () => cleanup();
}

// ----- the invite page ----------------------------------------------------------------------

function mountInvite(root, code, path, next) {
  let stopped = false;
  let ranked = false; // the party is ranked: joining needs an account
  let party = null; // the party as the invite page last saw it
  const error = h("p", { class: "error", testid: "party-error", role: "alert" });
  const name = h("input", {
    id: "party-name", testid: "party-name", type: "text", maxlength: "24", required: true,
    autocomplete: "nickname", value: store.get(NAME_KEY, "") || "",
  });
  const nameRow = h("div", { class: "field" }, h("label", { for: "party-name" }, t("party.your_name")), name);
  const joinAs = h("p", { testid: "party-join-as", hidden: true });
  const join = h("button", { type: "submit", class: "primary big", testid: "join-party" }, t("party.join"));
  const watchButton = h("button", { type: "button", class: "big", testid: "watch-instead", hidden: true, onclick: () => next.watch() }, t("party.watch_instead"));
  const about = h("p", { testid: "party-about" }, t("party.looking_up"));

  /** Who joins: the account signed in (its name is the seat's), else the name typed. */
  function showWho() {
    const me = signedIn();
    nameRow.hidden = !!me || ranked;
    name.required = !nameRow.hidden; // a hidden box must not hold the form back
    joinAs.hidden = !me;
    if (me) joinAs.textContent = t("party.join_as", { name: me.name });
    join.textContent = t(ranked && !me ? "party.sign_in_to_join" : "party.join");
    if (party) describe(party);
  }

  async function joinNow(who) {
    error.textContent = "";
    join.disabled = true;
    try {
      const joined = await joinParty(path, who);
      if (stopped) return;
      keepPartySeat(joined);
      next.joined();
    } catch (problem) {
      if (stopped) return;
      join.disabled = false;
      const body = problem.body && problem.body.code ? problem.body : null;
      error.textContent = body ? partyRefusalText(body, { joining: true })
        : problem.status === 429 ? t("party.codes_limited") : problem.message;
      if (body && body.code === "ranked_account") {
        ranked = true; // ranked since the page looked: sign in, then join again
        showWho();
      }
      if (body && (body.code === "party_full" || body.code === "party_started")) closed(body.watch);
      else if (problem.status === 409 && body && body.watch) watchButton.hidden = false;
    }
  }

  const form = h("form", {
    class: "panel invite",
    onsubmit: async (event) => {
      event.preventDefault();
      let me = signedIn();
      if (ranked && !me) {
        me = await askToSignIn(t("party.sign_in_why"));
        if (stopped || !me) return;
      }
      const who = me ? me.name : name.value.trim();
      if (!who) {
        error.textContent = t("party.name_first");
        name.focus();
        return;
      }
      if (!me) store.set(NAME_KEY, who);
      await joinNow(who);
    },
  },
  h("h1", {}, t("party.join_heading")),
  about,
  nameRow,
  joinAs,
  h("div", { class: "row" }, join, watchButton),
  error);
  fill(root, h("div", { class: "party-invite" }, form));
  name.focus();
  const stopAccount = onAccount(showWho);
  whenKnown().then(() => !stopped && showWho());

  function describe(view) {
    const host = hostName(view);
    const seats = t("party.seats_taken", { count: view.members.length, max: view.max_seats });
    const me = signedIn();
    if (view.state === "lobby") {
      about.textContent = view.ranked
        ? me ? t("party.ranked_invite_signed_in", { host, name: me.name }) : t("party.ranked_invite", { host })
        : t("party.invites", { host, seats });
      if (view.members.length >= view.max_seats) {
        about.textContent = t("party.full", { host });
        closed(view.spectators);
      }
    } else if (view.state === "playing") {
      about.textContent = t(view.spectators ? "party.started_watch" : "party.started", { host });
      closed(view.spectators);
    } else {
      about.textContent = t("party.over");
      closed(false);
    }
  }

  /** No seat to take (full, started, over): no name to ask for and no Join, only Watch
   * when the party may be watched. */
  function closed(watchable) {
    for (const part of [nameRow, joinAs, join]) part.hidden = true;
    name.required = false;
    join.disabled = true;
    watchButton.hidden = !watchable;
    watchButton.textContent = t("party.watch"); // the one thing left to do: not "instead"
    watchButton.classList.toggle("primary", watchable);
    if (watchable) watchButton.focus();
  }

  getParty(path)
    .then((view) => {
      if (stopped) return;
      party = view;
      ranked = !!view.ranked;
      showWho();
    })
    .catch((problem) => {
      if (stopped) return;
      if (problem.status === 404) notice(root, t("party.no_such"), t("party.no_such_text", { code: spelled(code) }));
      else if (problem.status === 429) about.textContent = t("party.codes_limited");
      else about.textContent = t("party.lookup_failed", { problem: problem.message });
    });

  return () => {
    stopped = true;
    stopAccount();
  };
}

// ----- the party's lobby ----------------------------------------------------------------------

/** A select of [value, label] choices, its values as JSON. */
function selectOf(id, choices, onchange) {
  const select = h("select", { id, testid: id },
    choices.map(([value, label]) => h("option", { value: JSON.stringify(value) }, label)));
  select.addEventListener("change", () => onchange(JSON.parse(select.value)));
  return select;
}

/**
 * "Invite a program", for the host while the party is in its lobby: the programs online (GET
 * /api/bots, asked as the page opens and again after each invitation) that are not at the
 * party yet, and Invite. The invitation waits for the program's answer; once it accepts, it
 * joins by itself and the party's view shows it. `render(view)` after each view.
 */
function programInviter(path, token) {
  let names = null; // the programs online, once the server said
  let asking = false;
  let view = null;
  const select = h("select", { id: "invite-bot-name", testid: "invite-bot-name" });
  const button = h("button", { type: "button", testid: "invite-bot-button" }, t("party.invite_bot_button"));
  const choice = h("div", { class: "row" }, h("label", { for: "invite-bot-name" }, t("party.invite_bot_label")), select, button);
  const none = h("p", { class: "help", testid: "invite-bot-none" }, t("party.invite_bot_none"));
  const status = h("p", { class: "help", testid: "invite-bot-status", "aria-live": "polite" });
  const node = h("section", { class: "invite-bot host-only", testid: "invite-bot", "aria-labelledby": "invite-bot-heading", hidden: true },
    h("h3", { id: "invite-bot-heading" }, t("party.invite_bot_heading")),
    choice, none, status);

  const say = (text, refused = false) => {
    status.textContent = text;
    status.classList.toggle("error", refused);
  };

  function load() {
    getBots()
      .then((found) => {
        names = (found.bots || []).map((bot) => bot.name);
        render(view);
      })
      .catch(() => {}); // no list, no control: the party works without it
  }

  function render(next) {
    view = next;
    node.hidden = !view || !isHost(view) || view.state !== "lobby" || names === null;
    if (node.hidden) return;
    const here = new Set(view.members.filter((member) => member.program).map((member) => member.name));
    const free = names.filter((name) => !here.has(name));
    const kept = select.value;
    fill(select, free.map((name) => h("option", { value: name }, name)));
    if (free.includes(kept)) select.value = kept;
    choice.hidden = !free.length;
    none.hidden = !!free.length;
    select.disabled = button.disabled = asking;
  }

  button.addEventListener("click", async () => {
    const bot = select.value;
    if (!bot || asking) return;
    asking = true;
    render(view);
    say(t("party.bot_waiting", { name: bot }));
    try {
      await inviteBot(path, token, bot);
      say(t("party.invite_bot_accepted", { name: bot }));
    } catch (problem) {
      say(problemText(problem), true);
    } finally {
      asking = false;
      load(); // who is online may have changed meanwhile
    }
  });
  if (token) load();
  return { node, render };
}

function mountLobby(root, code, path, held, invite) {
  const token = held && held.token;
  const watching = !token;
  let view = null;
  let options = null;
  let built = null; // the rules panel's controls, once options and the first view are in
  const controls = {}; // option -> {control, extra, set}

  const message = h("p", { class: "message", testid: "party-message", role: "status" });
  const say = (text) => (message.textContent = text || "");
  const codeBig = h("p", { class: "party-code", testid: "party-code" }, code);
  const link = h("input", { type: "text", id: "invite-link", testid: "invite-link", readonly: true, "aria-label": t("party.invite_link"), value: `${location.origin}/#/party/${path}` });
  const copied = h("span", { class: "help", testid: "copied", "aria-live": "polite" });
  const copy = h("button", {
    type: "button", testid: "copy-link",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(link.value);
        copied.textContent = t("party.copied");
      } catch {
        link.select();
        copied.textContent = t("party.copy_by_hand");
      }
    },
  }, t("party.copy"));
  const members = h("ol", { class: "members", testid: "members" });
  const seatsLine = h("p", { class: "help", testid: "seats-line" });
  const ready = h("button", { type: "button", class: "big", testid: "ready-toggle", "aria-pressed": "false" }, t("party.ready"));
  const start = h("button", { type: "button", class: "primary big", testid: "start-party" }, t("party.start"));
  const why = h("p", { class: "help", testid: "start-why", "aria-live": "polite" });
  const cpuLevel = h("select", { id: "cpu-level", testid: "cpu-level" });
  const addCpu = h("button", { type: "button", testid: "add-cpu" }, t("party.add_cpu"));
  const hostTools = h("div", { class: "row host-only" }, h("label", { for: "cpu-level" }, t("party.level")), cpuLevel, addCpu);
  const leave = h("button", { type: "button", class: "ghost", testid: "leave-party" }, t("party.leave"));
  const house = h("div", { class: "rules-grid", testid: "party-house-rules", "data-words": "rules" });
  const more = h("div", { class: "rules-grid", testid: "more-rules-body", "data-words": "rules" });
  const timer = h("select", { id: "party-timer", testid: "party-timer" });
  const spectators = h("input", { id: "party-spectators", testid: "party-spectators", type: "checkbox" });
  const listed = h("input", { id: "party-listed", testid: "party-listed", type: "checkbox" });
  const whoChanges = h("p", { class: "help", testid: "who-changes" });
  const badge = watching ? h("span", { class: "badge", testid: "watching-badge" }, t("party.watching")) : null;
  // whether the games count for rating, said near the top; the host switches it
  const rankedText = h("strong", { testid: "party-ranked-text", role: "status" });
  const rankedBox = h("input", { id: "party-ranked", testid: "party-ranked", type: "checkbox", "aria-describedby": "party-ranked-help" });
  const rankedHost = h("span", { class: "field check host-only" }, rankedBox, h("label", { for: "party-ranked" }, t("party.ranked_toggle")));
  const rankedRow = h("div", { class: "ranked-line", testid: "party-ranked-line" }, rankedText, rankedHost,
    h("p", { class: "help", id: "party-ranked-help", hidden: true }, t("party.ranked_toggle_help")));
  const noCpu = h("p", { class: "help", testid: "ranked-no-cpu", hidden: true }, t("party.ranked_no_cpu"));
  const inviter = programInviter(path, token);

  const conn = new PartyConnection(path, watching ? { watch: true } : { token }, {
    message: onMessage,
    open: () => setConnection(t("common.connected"), "ok"),
    closed: (wait) => setConnection(connectionLost(wait), "bad"),
    noSeat: () => {
      store.remove(partyKey(code));
      conn.stop();
      notice(root, t(watching ? "party.nothing_to_watch" : "party.not_in"),
        t(watching ? "party.cannot_watch" : "party.no_seat_here"),
        watching ? null : h("p", {}, h("a", { href: `#/party/${encodeURIComponent(code)}`, onclick: (event) => { event.preventDefault(); invite(); } }, t("party.join_again"))));
    },
  });

  const send = (type, data) => {
    say("");
    if (!conn.send(type, data)) say(t("party.not_connected"));
  };
  ready.addEventListener("click", () => {
    const mine = view && me(view);
    if (mine) send("ready", { ready: !mine.ready });
  });
  start.addEventListener("click", () => send("start", {}));
  addCpu.addEventListener("click", () => send("add_cpu", { level: cpuLevel.value }));
  leave.addEventListener("click", () => {
    if (!window.confirm(t("party.leave_confirm"))) return;
    send("leave", {});
    store.remove(partyKey(code));
    location.hash = "#/";
  });
  timer.addEventListener("change", () => send("settings", timer.value ? { turn_timer: Number(timer.value) } : { no_timer: true }));
  spectators.addEventListener("change", () => send("settings", { spectators: spectators.checked }));
  listed.addEventListener("change", () => send("settings", { listed: listed.checked }));
  rankedBox.addEventListener("change", () => {
    const timers = options ? options.turn_timers : [];
    const timer = timers.includes(RANKED_DEFAULT_TIMER) ? RANKED_DEFAULT_TIMER : timers[timers.length - 1];
    send("settings", rankedSettings(view, rankedBox.checked, timer));
  });

  // The rules last sent and not yet seen back: a second change made before the server's
  // answer builds on them, not on the view before the first. The server drops what equals the
  // preset and keeps its ties: the page keeps no rule of its own.
  let sentRules = null;

  function setRule(option, value) {
    sentRules = { ...(sentRules || view.rules), [option]: value };
    send("settings", { rules: sentRules });
  }

  /** The rules panel, built once the options and the first view are in: the preset's house
   * rules first (the party site's, with the values it offers), the other options under "More
   * rules". */
  function buildRules() {
    const preset = options.presets[view.preset];
    if (!preset) return;
    fill(house);
    fill(more);
    for (const key of Object.keys(controls)) delete controls[key];
    const fields = Object.fromEntries(preset.form.map((field) => [field.name, field]));
    const houseRules = preset.house || [];
    const control = (field, choices) => {
      const made = ruleControl(field, `party-rule-${field.name}`, {
        preset: view.preset, ties: preset.ties, choices, onchange: (value) => value !== undefined && setRule(field.name, value),
      });
      controls[field.name] = made;
      return made.row;
    };
    for (const rule of houseRules) if (fields[rule.option]) house.append(control(fields[rule.option], rule.choices));
    const presetSelect = selectOf("party-preset", Object.keys(options.presets).map((name) => [name, presetName(name)]), (name) => send("settings", { preset: name, rules: {} }));
    controls["@preset"] = { control: presetSelect, set: (v) => (presetSelect.value = JSON.stringify(v)) };
    more.append(h("div", { class: "field" }, h("label", { for: "party-preset" }, t("party.start_preset")), presetSelect,
      h("p", { class: "help" }, presetSummary(view.preset, preset))));
    const inHouse = new Set(houseRules.map((rule) => rule.option));
    for (const field of preset.form) if (!inHouse.has(field.name)) more.append(control(field, null));
    built = view.preset;
  }

  function renderRules() {
    if (!options) return;
    if (built !== view.preset) buildRules();
    const preset = options.presets[view.preset];
    if (!preset) return;
    const host = isHost(view);
    for (const [option, made] of Object.entries(controls)) {
      if (option === "@preset") {
        made.control.disabled = !host;
        made.set(view.preset);
        continue;
      }
      made.set(view.in_play[option]);
      enableControl(made, host);
    }
    timer.value = view.turn_timer ? String(view.turn_timer) : "";
    timer.disabled = !host;
    if (timer.options[0]) timer.options[0].disabled = !!view.ranked; // ranked needs a timer
    spectators.checked = !!view.spectators;
    spectators.disabled = !host;
    listed.checked = !!view.listed;
    listed.disabled = !host;
    whoChanges.textContent = host ? t("party.rules_change_note") : t("party.host_chooses", { host: hostName(view) });
  }

  function renderMembers() {
    const host = isHost(view);
    fill(members, view.members.map((member) =>
      h("li", { class: `member${member.id === view.me ? " me" : ""}`, testid: "member", "data-member": String(member.id), "data-ready": String(member.ready), "data-connected": String(member.connected) },
        h("span", { class: `presence${member.connected ? " on" : ""}`, "aria-hidden": "true" }),
        h("strong", { class: "member-name" }, member.name),
        botBadgeFor(member),
        memberMarks(view, member).map((mark) => h("span", { class: `mark mark-${mark.kind}` }, mark.text)),
        host && member.id !== view.me && view.state === "lobby"
          ? h("button", { type: "button", class: "ghost small-btn", testid: "remove-member", onclick: () => send("remove", { member: member.id }) }, t("party.remove"))
          : null)));
    const max = view.max_seats;
    seatsLine.textContent = t("party.seats_taken_line", { count: view.members.length, max });
  }

  function render() {
    link.value = `${location.origin}/${view.url.replace(/^\//, "")}`;
    codeBig.textContent = view.code;
    renderMembers();
    const mine = me(view);
    const host = isHost(view);
    ready.hidden = !mine || mine.kind !== "human" || host;
    if (mine) {
      ready.setAttribute("aria-pressed", String(!!mine.ready));
      ready.textContent = t(mine.ready ? "party.ready_undo" : "party.ready");
    }
    hostTools.hidden = !host;
    addCpu.disabled = cpuLevel.disabled = !!view.ranked;
    noCpu.hidden = !host || !view.ranked;
    const line = rankedLine(view);
    rankedRow.dataset.ranked = String(line.ranked);
    rankedText.textContent = line.text;
    rankedBox.checked = line.ranked;
    rankedHost.hidden = !host;
    rankedBox.disabled = !host;
    rankedRow.querySelector(".help").hidden = !host;
    start.hidden = !host;
    leave.hidden = watching;
    const problem = startProblem(view);
    start.disabled = !!problem;
    why.textContent = problem || (host ? t("party.all_ready") : t("party.waiting_host", { host: hostName(view) }));
    inviter.render(view);
    renderRules();
  }

  function onMessage(msg) {
    if (msg.t === "refused") {
      sentRules = null;
      say(partyRefusalText(msg.d));
      if (view) render(); // a refused change: the controls show the party's settings again
      return;
    }
    if (msg.t !== "party") return;
    const before = view;
    view = msg.d;
    // the change was made (or another preset chosen): later changes build on the party's rules
    if (sentRules && (JSON.stringify(view.rules) !== JSON.stringify(before.rules) || before.preset !== view.preset)) sentRules = null;
    if (view.table) {
      conn.stop();
      goToTable(view, token);
      return;
    }
    if (view.state === "closed") {
      conn.stop();
      store.remove(partyKey(code));
      notice(root, t("party.closed"), t("party.closed_text"));
      return;
    }
    if (!watching && !me(view)) {
      // the host removed this member: the party keeps no seat for this device any more
      store.remove(partyKey(code));
      conn.stop();
      notice(root, t("party.not_in"), t("party.removed_text"));
      return;
    }
    const note = readyClearedNote(before, view);
    if (note) say(note);
    render();
  }

  fill(root, h("div", { class: "party" },
    h("section", { class: "panel party-head" },
      h("h1", {}, t("party.heading"), " ", badge),
      rankedRow,
      h("p", { class: "help" }, t("party.read_code")),
      codeBig,
      h("div", { class: "row invite-row" }, link, copy),
      copied),
    h("section", { class: "panel party-members", "aria-label": t("party.players") },
      h("h2", {}, t("party.players")),
      seatsLine,
      members,
      hostTools,
      noCpu,
      inviter.node,
      h("div", { class: "row" }, ready, start),
      why,
      message,
      h("div", { class: "row" }, leave)),
    h("section", { class: "panel party-rules", "aria-label": t("party.house_rules") },
      h("h2", {}, t("party.house_rules")),
      whoChanges,
      house,
      h("div", { class: "field" }, h("label", { for: "party-timer" }, t("party.turn_time")), timer,
        h("p", { class: "help" }, t("party.turn_time_help"))),
      h("div", { class: "field check" }, spectators, h("label", { for: "party-spectators" }, t("party.let_watch"))),
      h("div", { class: "field check" }, listed, h("label", { for: "party-listed" }, t("party.listed"))),
      h("details", { class: "house-rules", testid: "more-rules" }, h("summary", {}, t("party.more_rules")), more))));
  hostTools.hidden = start.hidden = true;

  getOptions()
    .then((found) => {
      options = found;
      fill(cpuLevel, options.levels.map((level) => h("option", { value: level }, t(`common.level.${level}`))));
      fill(timer, h("option", { value: "" }, t("common.no_time_limit")), options.turn_timers.map((s) => h("option", { value: String(s) }, t("common.seconds", { count: s }))));
      if (view) render();
    })
    .catch((problem) => say(t("common.rules_failed", { problem: problem.message })));
  conn.start();

  return () => {
    conn.stop();
    setConnection("", "");
  };
}
