// The few browser globals the modules read when imported (storage, the page's language, the
// address): enough for pure code under Node.
class Memory {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
}
const g = globalThis as Record<string, unknown>;
g.localStorage = new Memory();
g.sessionStorage = new Memory();
g.document = { documentElement: { lang: "" } };
g.location = { hash: "", origin: "http://localhost", search: "" };
g.addEventListener = () => undefined;
g.scrollTo = () => undefined;
Object.defineProperty(globalThis, "navigator", { value: { language: "el-GR", languages: ["el-GR"] }, configurable: true });
