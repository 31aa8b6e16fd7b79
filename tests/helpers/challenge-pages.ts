// The cardholder's browser in the 3-D Secure frames, without a browser: our pages and the sandbox
// ACS's are plain HTML forms that post themselves, so a test reads a form's action and hidden
// fields and posts them as the browser would.

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** The action of the form `id` (else the first form) of `html`. */
export function formAction(html: string, id?: string): string {
  return unescape((id ? new RegExp(`<form id="${id}"[^>]*action="([^"]+)"`) : /<form[^>]*action="([^"]+)"/).exec(html)![1]!);
}

/** The hidden fields of `html`'s forms, by name. */
export function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, unescape(m[2]!)]));
}

/**
 * The cardholder completes the sandbox ACS's challenge: our challenge page (`url` from the authorize
 * answer, with the origin `binding`) posts the CReq to the ACS, the code is entered, the ACS posts
 * the CRes back to us. Returns our answer to the CRes.
 */
export async function completeSandboxChallenge({ origin, url, binding, code }: { origin: string; url: string; binding: string; code: string }): Promise<Response> {
  const ours = await (await fetch(`${origin}${url}&b=${encodeURIComponent(binding)}`)).text();
  const acsUrl = formAction(ours, "acs-form");
  const acsPage = await (await fetch(acsUrl, { method: "POST", body: new URLSearchParams(hiddenFields(ours)) })).text();
  const submitted = await (
    await fetch(new URL(formAction(acsPage), acsUrl), {
      method: "POST",
      body: new URLSearchParams({ ...hiddenFields(acsPage), code, action: "complete" }),
    })
  ).text();
  return fetch(formAction(submitted, "cres"), { method: "POST", body: new URLSearchParams(hiddenFields(submitted)) });
}
