import { expect, test, type APIRequestContext } from '@playwright/test';
import { SHOTS, signUpApi, trpcOk, uniqueEmail, PASSWORD } from './helpers';

// The local Mailpit that `make up` / `make test` start (infra/services.sh): the app's real SMTP path
const MAILPIT = process.env.MAILPIT_URL ?? 'http://127.0.0.1:54026';

/** The text of the newest message to `to` whose subject matches, waiting for it to arrive. */
async function mailTo(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const list = (await (
          await request.get(`${MAILPIT}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`)
        ).json()) as { messages: Array<{ ID: string; Subject: string }> };
        const m = list.messages.find((x) => subject.test(x.Subject));
        if (!m) return false;
        text = (
          (await (await request.get(`${MAILPIT}/api/v1/message/${m.ID}`)).json()) as {
            Text: string;
          }
        ).Text;
        return true;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  return text;
}
const linkIn = (text: string) => /(https?:\/\/\S+)/.exec(text)![1]!;

/**
 * Email verification through the real mail path: a sign-up is mailed a verification link (read
 * from Mailpit), and an invitation sent to an address can be accepted only by that address,
 * verified. Someone else holding the link learns nothing about the address.
 */
test('sign-up verification mail, and an invitation that needs the invited address verified', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(3 * 60_000);
  // the team's owner signs up and verifies their address from the message
  const ownerCtx = await browser.newContext();
  const owner = await ownerCtx.newPage();
  const ownerEmail = await signUpApi(owner.request, baseURL!, 'Mail Owner');
  await owner.goto('/runs');
  await expect(owner.getByTestId('verify-email-banner')).toContainText(ownerEmail);
  await owner.screenshot({ path: `${SHOTS}/40-verify-email-banner.png` });
  const verification = await mailTo(owner.request, ownerEmail, /Verify your email address/);
  await owner.goto(linkIn(verification));
  await owner.goto('/runs');
  await expect(owner.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(owner.getByTestId('verify-email-banner')).toHaveCount(0);

  // an admin invitation for an address: it is mailed there
  const invitee = uniqueEmail('invitee');
  const call = trpcOk(owner.request, baseURL!);
  const inv = (await call('team.invite', { role: 'admin', email: invitee })) as unknown as {
    token: string;
  };
  const invitation = await mailTo(owner.request, invitee, /invited you to/);
  expect(linkIn(invitation)).toBe(`${baseURL}/invite/${inv.token}`);

  // someone else with the link: refused, and not told the address
  const otherCtx = await browser.newContext();
  const other = await otherCtx.newPage();
  await signUpApi(other.request, baseURL!, 'Link Holder');
  await other.goto(`/invite/${inv.token}`);
  await other.getByRole('button', { name: 'Accept and join' }).click();
  await expect(other.getByText(/sent to another email address/)).toBeVisible();
  await expect(other.getByText(invitee)).toHaveCount(0);

  // a sign-up under the invited address: refused until the address is verified
  const inviteeCtx = await browser.newContext();
  const page = await inviteeCtx.newPage();
  const res = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Invitee', email: invitee, password: PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto(`/invite/${inv.token}`);
  await page.getByRole('button', { name: 'Accept and join' }).click();
  await expect(page.getByText(/verify your email address first/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/41-invite-needs-verified-address.png` });
  await page.goto(linkIn(await mailTo(page.request, invitee, /Verify your email address/)));
  await page.goto(`/invite/${inv.token}`);
  await page.getByRole('button', { name: 'Accept and join' }).click();
  await expect(page).not.toHaveURL(/\/invite\//, { timeout: 15_000 });
  const me = (await trpcOk(page.request, baseURL!)('team.me', undefined, 'query')) as unknown as {
    teams: Array<{ role: string }>;
  };
  expect(me.teams.map((t) => t.role).sort()).toEqual(['admin', 'owner']);
  await Promise.all([ownerCtx.close(), otherCtx.close(), inviteeCtx.close()]);
});
