// The organiser's divisions editor (R3.7), in the create and the edit forms: add, remove and
// move divisions (highest first), each with a name, an id (made from the name until typed)
// and optionally its own entry fee and early-bird fee in euros. One division by default.
import { cents } from "../format";
import { t } from "../i18n";
import { slug, unique, type Division } from "../divisions";

export const MAX_DIVISIONS = 8;

export interface DivisionRow {
  key: number;
  id: string;
  name: string;
  fee: string;
  earlyFee: string;
  /** the id was typed (or came from the API): the name no longer changes it */
  ownId: boolean;
}

let counter = 100; // keys of rows added in the form (rows loaded are keyed by their place)
const euros = (amount: number | undefined) => (amount === undefined ? "" : (amount / 100).toFixed(2).replace(".", ","));

export function rowsOf(divisions: readonly Division[] | undefined): DivisionRow[] {
  return (divisions ?? []).map((d, i) => ({
    key: i,
    id: d.id,
    name: d.name,
    fee: d.entry_fee ? euros(d.entry_fee.amount) : "",
    earlyFee: d.early_bird_fee ? euros(d.early_bird_fee.amount) : "",
    ownId: true,
  }));
}

/** One division, as the API has by default ("main"), named in the form's language. */
export const defaultRows = (): DivisionRow[] =>
  rowsOf([{ id: "main", name: t("division_default") }]).map((row) => ({ ...row, ownId: false }));

/** The divisions as the API takes them; null when a typed fee is not an amount. */
export function divisionsOf(rows: readonly DivisionRow[]): Division[] | null {
  const out: Division[] = [];
  for (const row of rows) {
    const fee = row.fee.trim() ? cents(row.fee) : undefined;
    const early = row.earlyFee.trim() ? cents(row.earlyFee) : undefined;
    if (fee === null || early === null) return null;
    out.push({
      id: row.id.trim(),
      name: row.name.trim(),
      entry_fee: fee === undefined ? null : { amount: fee, currency: "EUR" },
      early_bird_fee: early === undefined ? null : { amount: early, currency: "EUR" },
    });
  }
  return out;
}

/** Two lists the same for the API (what the form compares to send only what changed). */
export const sameDivisions = (a: Division[] | null, b: Division[] | null) => JSON.stringify(a) === JSON.stringify(b);

export function DivisionsEditor({ rows, onChange }: { rows: DivisionRow[]; onChange: (rows: DivisionRow[]) => void }) {
  const change = (i: number, patch: Partial<DivisionRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const others = (i: number) => rows.filter((_, j) => j !== i).map((r) => r.id);
  function rename(i: number, name: string) {
    change(i, rows[i]?.ownId ? { name } : { name, id: unique(slug(name), others(i)) });
  }
  /** The row at i one place up (by -1) or down (by 1). */
  function move(i: number, by: number) {
    const next = rows.filter((_, j) => j !== i);
    next.splice(i + by, 0, ...rows.slice(i, i + 1));
    onChange(next);
  }
  function add() {
    const ids = rows.map((r) => r.id);
    onChange([...rows, { key: ++counter, id: unique("division", ids), name: "", fee: "", earlyFee: "", ownId: false }]);
  }
  return (
    <div data-testid="divisions-editor">
      <p class="hint">{t("divisions_order_hint")}</p>
      <ol class="cards">
        {rows.map((row, i) => {
          const label = row.name || t("division_n", { n: i + 1 });
          return (
            <li key={row.key} data-testid="division-row">
              <fieldset>
                <legend>{t("division_n", { n: i + 1 })}</legend>
                <label>
                  {t("field_division_name")}
                  <input name={`division-name-${i}`} required maxLength={80} value={row.name} onInput={(e) => rename(i, e.currentTarget.value)} />
                </label>
                <label>
                  {t("field_division_id")}
                  <input
                    name={`division-id-${i}`}
                    required
                    maxLength={64}
                    pattern="[A-Za-z0-9_\-]+"
                    autocapitalize="none"
                    autocomplete="off"
                    spellcheck={false}
                    value={row.id}
                    onInput={(e) => change(i, { id: e.currentTarget.value, ownId: true })}
                  />
                </label>
                <div class="two">
                  <label>
                    {t("field_division_fee")}
                    <input name={`division-fee-${i}`} inputMode="decimal" value={row.fee} onInput={(e) => change(i, { fee: e.currentTarget.value })} />
                  </label>
                  <label>
                    {t("field_division_early_fee")}
                    <input name={`division-early-fee-${i}`} inputMode="decimal" value={row.earlyFee} onInput={(e) => change(i, { earlyFee: e.currentTarget.value })} />
                  </label>
                </div>
                <div class="three">
                  <button type="button" class="small secondary" disabled={i === 0} aria-label={t("division_up", { name: label })} onClick={() => move(i, -1)}>
                    ↑
                  </button>
                  <button type="button" class="small secondary" disabled={i === rows.length - 1} aria-label={t("division_down", { name: label })} onClick={() => move(i, 1)}>
                    ↓
                  </button>
                  <button
                    type="button"
                    class="small secondary"
                    disabled={rows.length === 1}
                    aria-label={t("division_remove_named", { name: label })}
                    onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  >
                    {t("division_remove")}
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {rows.length < MAX_DIVISIONS && (
        <button type="button" class="secondary" onClick={add}>
          {t("division_add")}
        </button>
      )}
    </div>
  );
}
