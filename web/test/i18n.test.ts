import { describe, expect, it } from "vitest";
import el from "../src/i18n/el.json";
import en from "../src/i18n/en.json";
import itCatalogue from "../src/i18n/it.json";
import errorsEl from "../src/i18n/errors.el.json";
import errorsEn from "../src/i18n/errors.en.json";
import errorsIt from "../src/i18n/errors.it.json";
import { fill, firstLanguage } from "../src/i18n";
import { refusal } from "../src/api/client";

describe("plurals", () => {
  it("chooses the word for the count in each language's rules", () => {
    const text = "{n} {n|αγώνας|αγώνες}";
    expect(fill(text, { n: 1 }, "el")).toBe("1 αγώνας");
    expect(fill(text, { n: 2 }, "el")).toBe("2 αγώνες");
    expect(fill("{n} {n|partita|partite}", { n: 0 }, "it")).toBe("0 partite");
    expect(fill("{n} {n|match|matches}", { n: 1 }, "en")).toBe("1 match");
  });
});

describe("catalogues", () => {
  it("have the same texts in every language, none empty", () => {
    for (const catalogue of [en, itCatalogue]) expect(Object.keys(catalogue).sort()).toEqual(Object.keys(el).sort());
    for (const catalogue of [errorsEn, errorsIt]) expect(Object.keys(catalogue).sort()).toEqual(Object.keys(errorsEl).sort());
    for (const catalogue of [el, en, itCatalogue, errorsEl, errorsEn, errorsIt])
      expect(Object.values(catalogue).filter((v) => !v.trim())).toEqual([]);
  });
});

describe("the first language", () => {
  it("is the one chosen on the device, else the browser's, else Greek", () => {
    expect(firstLanguage("en", ["it-IT"])).toBe("en");
    expect(firstLanguage(null, ["it-IT", "en"])).toBe("it");
    expect(firstLanguage(null, ["de-DE", "en-GB"])).toBe("en");
    expect(firstLanguage(null, ["de-DE"])).toBe("el");
    expect(firstLanguage("xx", [])).toBe("el");
  });
});

describe("refusals", () => {
  const invalid = { error: { code: "validation_error", message: "capacity: must be at least 2" } };
  it("are said in the screen's language by error code, with no English in a Greek or Italian screen", () => {
    expect(refusal(invalid, "el")).toBe(errorsEl.validation_error);
    expect(refusal(invalid, "it")).toBe(errorsIt.validation_error);
    expect(refusal(invalid, "en")).toBe(`${errorsEn.validation_error} (capacity: must be at least 2)`);
  });
  it("fall back to a sentence in the language for a code this build does not know", () => {
    const unknown = { error: { code: "brand_new", message: "Something new went wrong" } };
    expect(refusal(unknown, "el")).toBe(errorsEl.bad_request);
    expect(refusal(unknown, "en")).toBe("Something new went wrong");
    expect(refusal(undefined, "el")).toBe("");
  });
});
