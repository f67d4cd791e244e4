import { describe, expect, it } from "vitest";
import { conditionalFetch, network } from "../src/live/conditional";

describe("reads conditional on the last ETag", () => {
  it("send If-None-Match and keep the data on a 304", async () => {
    const seen: (string | null)[] = [];
    const answers = [
      new Response('{"n":1}', { status: 200, headers: { etag: '"a"', "content-type": "application/json" } }),
      new Response(null, { status: 304, headers: { etag: '"a"' } }),
    ];
    const send = (async (request: Request) => {
      seen.push(request.headers.get("If-None-Match"));
      return answers.shift()!;
    }) as typeof fetch;
    const url = "http://localhost/tournaments/t1/board";
    expect(await (await conditionalFetch(new Request(url), send)).json()).toEqual({ n: 1 });
    const again = await conditionalFetch(new Request(url), send);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ n: 1 });
    expect(seen).toEqual([null, '"a"']);
  });
  it("say since when the API cannot be reached, and forget it once it answers", async () => {
    const down = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const up = (async () => new Response("{}", { status: 200 })) as typeof fetch;
    await conditionalFetch(new Request("http://localhost/a"), up);
    await expect(conditionalFetch(new Request("http://localhost/b"), down)).rejects.toThrow();
    expect(network.value.failingSince).not.toBeNull();
    expect(network.value.okAt).not.toBeNull();
    // the service worker's copy, given offline, is not a live answer
    const copy = (async () => new Response("{}", { status: 200, headers: { "x-tavla-offline": "1" } })) as typeof fetch;
    await conditionalFetch(new Request("http://localhost/c"), copy);
    expect(network.value.failingSince).not.toBeNull();
    await conditionalFetch(new Request("http://localhost/d"), up);
    expect(network.value.failingSince).toBeNull();
  });
});
