// Web push (a phone told "your match is called" with the app closed). This is the stand-in
// used until the server sends pushes: it asks nothing and says the browser cannot.
export async function askForPush(): Promise<"granted" | "denied" | "unsupported"> {
  return "unsupported";
}
