// The rule options as form controls: the one builder behind the lobby's new game and the
// party's house rules. Each field is a preset's form field from /api/options; what the rules
// make of a change (the preset's ties, the table sizes) is the server's to say (POST
// /api/rules, or the party's view), so a control only shows a value and reports a choice.
import { t } from "./i18n.js";
import { localField, ruleValueText, tieReason, valueKey } from "./rule_words.js";
import { h } from "./util.js";

/**
 * A control for one option of `preset`'s form: {field, row, control, extra, get(), set(value),
 * showDefault(value)}.
 * - `blank`: the control may say "as the preset" (a select's first choice, an empty number),
 *   and `get()` gives `undefined` then; `showDefault` writes what that will be.
 * - `choices`: [{value, label}] offered in place of the field's own (a house rule's).
 * - `onchange(value)`: called with `get()` when the player changes it.
 * `ties`: the preset's ties, whose reasons join the help of the option they set.
 */
export function ruleControl(rawField, id, { preset, ties = [], blank = false, choices = null, onchange = () => {} }) {
  const field = localField(rawField, preset);
  const label = (value) => ruleValueText(preset, field.name, value);
  const help = h("p", { class: "help", id: `${id}-help` }, field.help,
    ties.filter((tie) => tie.follower === field.name).map((tie) => ` ${tieReason(preset, tie)}`));
  const described = { id, testid: id, "aria-describedby": `${id}-help` };
  const title = h("label", { for: id }, field.title);
  const made = { field, extra: null, showDefault: () => {} };

  if (field.kind === "boolean") {
    const box = h("input", { ...described, type: "checkbox" });
    Object.assign(made, {
      control: box,
      row: h("div", { class: "field check" }, box, title, help),
      get: () => box.checked,
      set: (value) => (box.checked = !!value),
    });
  } else if (choices || field.choices.length) {
    const offered = (choices || field.choices).map((choice) => choice.value);
    const select = h("select", described,
      blank ? h("option", { value: "" }, "") : null,
      offered.map((value) => h("option", { value: valueKey(value) }, label(value))));
    Object.assign(made, {
      control: select,
      row: h("div", { class: "field" }, title, select, help),
      get: () => (select.value === "" ? undefined : offered.find((value) => valueKey(value) === select.value)),
      set: (value) => {
        if (!offered.some((known) => known === value)) {
          offered.push(value); // a value this form does not offer (another preset's): shown as it is
          select.append(h("option", { value: valueKey(value) }, label(value)));
        }
        select.value = valueKey(value);
      },
      showDefault: (value) => {
        if (blank) select.options[0].textContent = t("lobby.as_preset", { value: label(value) });
      },
    });
  } else {
    const input = h("input", { ...described, type: "number", inputmode: "numeric", step: "1",
      min: String(field.min), max: field.max === null ? null : String(field.max) });
    // a null value is offered only where the preset's own is null: "no limit"
    const none = field.none === null || field.none === undefined ? null : h("input", { id: `${id}-none`, testid: `${id}-none`, type: "checkbox" });
    if (none) {
      none.addEventListener("change", () => {
        input.disabled = input.disabledByRole || none.checked;
        // a limit chosen: the smallest until another number is typed
        if (!none.checked && input.value.trim() === "") input.value = String(field.min);
      });
    }
    Object.assign(made, {
      control: input,
      extra: none,
      row: h("div", { class: "field" }, title, input,
        none ? h("span", { class: "no-limit" }, none, h("label", { for: none.id }, ` ${field.none}`)) : null, help),
      get: () => {
        if (none && none.checked) return null;
        const number = Number(input.value);
        return input.value.trim() === "" || !Number.isFinite(number) ? undefined : number;
      },
      set: (value) => {
        if (none) none.checked = value === null;
        input.disabled = input.disabledByRole || value === null;
        if (document.activeElement !== input) input.value = value === null ? "" : String(value);
      },
      showDefault: (value) => (input.placeholder = value === null ? "" : String(value)),
    });
  }
  made.control.addEventListener("change", () => onchange(made.get()));
  if (made.extra) made.extra.addEventListener("change", () => onchange(made.get()));
  return made;
}

/** Let the host alone change the controls (`enabled`), keeping a disabled "no limit" field so. */
export function enableControl(made, enabled) {
  made.control.disabledByRole = !enabled;
  made.control.disabled = !enabled || (!!made.extra && made.extra.checked);
  if (made.extra) made.extra.disabled = !enabled;
}
