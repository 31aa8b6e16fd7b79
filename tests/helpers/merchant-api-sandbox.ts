// Reading the Clearhaus Merchant API sandbox back as the merchant's OAuth client would (the client
// credentials grant at its /oauth/token): what a test's evidence, comments and answers left at the
// acquirer, seen through the acquirer's own API rather than through our connector.

/** The Authorization header of a fresh access token of `credentials` at the sandbox rooted at `root`. */
export async function merchantApiSandboxAuth(root: string, credentials: { clientId: string; clientSecret: string }): Promise<{ authorization: string }> {
  const answer = await fetch(`${root}/oauth/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", audience: root }).toString(),
  });
  if (answer.status !== 200) throw new Error(`the sandbox's token endpoint answered ${answer.status}: ${await answer.text()}`);
  const { access_token: token } = (await answer.json()) as { access_token: string };
  return { authorization: `Bearer ${token}` };
}
