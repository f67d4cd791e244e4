// The fields that describe the event itself (name, place, when), shared by the new-tournament
// form and the organiser's edit form so both ask the same thing the same way.
import { t } from "../i18n";

export interface EventValues {
  name: string;
  venue: string;
  city: string;
  starts: string;
  closes: string;
}

export function EventFields({ values, set }: { values: EventValues; set: (name: keyof EventValues) => (e: Event) => void }) {
  return (
    <>
      <label>
        {t("field_tournament_name")}
        <input name="name" required value={values.name} onInput={set("name")} />
      </label>
      <label>
        {t("field_venue")}
        <input name="venue" required value={values.venue} onInput={set("venue")} />
      </label>
      <label>
        {t("field_city")}
        <input name="city" value={values.city} onInput={set("city")} />
      </label>
      <label>
        {t("field_starts")}
        <input name="starts" type="datetime-local" required value={values.starts} onInput={set("starts")} />
      </label>
      <label>
        {t("registration_closes")}
        <input name="closes" type="datetime-local" required value={values.closes} onInput={set("closes")} />
      </label>
    </>
  );
}
