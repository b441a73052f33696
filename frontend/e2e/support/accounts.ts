/** Account set-up through the API, for tests whose subject is not sign-up itself. */
import type { APIRequestContext } from '@playwright/test';
import { verificationLink } from './mail';

export const PASSWORD = 'Str0ng!Passw0rd';

/** Signs up, follows the e-mailed link and signs in; returns the access token. */
export async function createVerifiedUser(
  request: APIRequestContext,
  server: { url: string; dataDir: string },
  email: string,
  name = 'E2E Tester',
): Promise<string> {
  const signUp = await request.post(`${server.url}/authorization/signup`, {
    data: { email, password: PASSWORD, name },
  });
  if (!signUp.ok()) throw new Error(`sign-up failed: ${signUp.status()} ${await signUp.text()}`);
  const link = await verificationLink(server.dataDir, email);
  const verify = await request.get(link, { maxRedirects: 0 });
  if (verify.status() >= 400) throw new Error(`verification failed: ${verify.status()}`);
  const signIn = await request.post(`${server.url}/authorization/logindefault`, {
    data: { email, password: PASSWORD },
  });
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
  const body = (await signIn.json()) as { access_token?: string };
  if (!body.access_token) throw new Error('sign-in answered without access_token');
  return body.access_token;
}
