import { expect, test, type APIRequestContext } from '@playwright/test';
import { SHOTS, signUpApi, trpcCall, trpcOk, uniqueEmail, PASSWORD } from './helpers';

// The local Mailpit that `make up` / `make test` start (infra/services.sh): the app's real SMTP path.
// Its API answers only with the installation's credentials, which MAILPIT_URL carries
// (.data/poolbench.env, written by scripts/lib.sh): sent as a Basic header, not in the URL.
const MAILPIT_URL = new URL(process.env.MAILPIT_URL ?? 'http://127.0.0.1:54026');
const MAILPIT = `${MAILPIT_URL.protocol}//${MAILPIT_URL.host}`;
const MAILPIT_HEADERS: Record<string, string> = MAILPIT_URL.username
  ? {
      Authorization: `Basic ${Buffer.from(`${decodeURIComponent(MAILPIT_URL.username)}:${decodeURIComponent(MAILPIT_URL.password)}`).toString('base64')}`,
    }
  : {};

/** The text of the newest message to `to` whose subject matches, waiting for it to arrive. */
async function mailTo(request: APIRequestContext, to: string, subject: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const list = (await (
          await request.get(`${MAILPIT}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`, {
            headers: MAILPIT_HEADERS,
          })
        ).json()) as { messages: Array<{ ID: string; Subject: string }> };
        const m = list.messages.find((x) => subject.test(x.Subject));
        if (!m) return false;
        text = (
          (await (
            await request.get(`${MAILPIT}/api/v1/message/${m.ID}`, { headers: MAILPIT_HEADERS })
          ).json()) as {
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
  const ownerEmail = await signUpApi(owner.request, baseURL!, 'Mail Owner', { verified: false });
  await owner.goto('/runs');
  await expect(owner.getByTestId('verify-email-banner')).toContainText(ownerEmail);
  await owner.screenshot({ path: `${SHOTS}/40-verify-email-banner.png` });
  // until then the account cannot save a target (nor launch, check scripts or make tokens)
  const refused = await trpcCall(
    owner.request,
    baseURL!,
    'target.create',
    { kind: 'managed', name: 'Lab', requestDefaults: { method: 'GET', path: '/health' } },
    'mutation',
  );
  expect(refused.status).toBe(403);
  expect(refused.message).toMatch(/verify your email address first/);
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

/**
 * Pre-account hijacking: someone signs up first with another person's address. When the address's
 * owner opens the verification link, in a browser that was never signed in to the account, every
 * session of the account ends and the password set before stops working; the owner chooses a
 * password by the reset mail, which ends every session again.
 */
test('the owner of an address takes it back from whoever signed up with it first', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(3 * 60_000);
  const victim = uniqueEmail('hijacked');
  const attackerCtx = await browser.newContext();
  const attacker = await attackerCtx.newPage();
  const signedUp = await attacker.request.post('/api/auth/sign-up/email', {
    data: { name: 'Mallory', email: victim, password: PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  await attacker.goto('/runs');
  await expect(attacker.getByTestId('verify-email-banner')).toContainText(victim);

  // the owner opens the link from their own mailbox, in their own browser
  const ownerCtx = await browser.newContext();
  const owner = await ownerCtx.newPage();
  await owner.goto(linkIn(await mailTo(owner.request, victim, /Verify your email address/)));
  await owner.goto('/runs');
  await expect(owner.getByTestId('verify-email-banner')).toHaveCount(0);
  await expect(owner.getByTestId('no-password-banner')).toContainText(victim);
  // drawn with the page, not after team.me answers: it is in the HTML the server sends
  const html = await (await owner.request.get('/runs')).text();
  expect(html).toContain('data-testid="no-password-banner"');
  await owner.screenshot({ path: `${SHOTS}/42-no-password-after-verification.png` });

  // the attacker's session and password are gone
  await attacker.goto('/runs');
  await expect(attacker).toHaveURL(/\/sign-in/);
  const again = await attacker.request.post('/api/auth/sign-in/email', {
    data: { email: victim, password: PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(again.status()).toBe(401);

  // the owner chooses a password through the mailed link, then signs in with it
  await owner.getByRole('button', { name: 'Mail me a link to choose one' }).click();
  await expect(owner.getByTestId('no-password-banner')).toContainText('Link sent');
  await owner.goto(linkIn(await mailTo(owner.request, victim, /Choose a new password/)));
  await expect(owner).toHaveURL(/\/reset-password\?token=/);
  await owner.getByLabel('New password').fill('owners-own-password');
  await owner.getByRole('button', { name: 'Set the password' }).click();
  await expect(owner.getByText(/Your password is set/)).toBeVisible();
  await owner.screenshot({ path: `${SHOTS}/43-password-chosen.png` });
  await owner.getByRole('link', { name: 'Sign in' }).first().click();
  await owner.getByLabel('Email').fill(victim);
  await owner.getByLabel('Password').fill('owners-own-password');
  await owner.getByRole('button', { name: 'Sign in' }).click();
  await expect(owner).toHaveURL(/\/runs$/);
  await expect(owner.getByTestId('no-password-banner')).toHaveCount(0);
  expect(await (await owner.request.get('/runs')).text()).not.toContain('no-password-banner');
  await Promise.all([attackerCtx.close(), ownerCtx.close()]);
});

test('a forgotten password is reset by mail from the sign-in page', async ({ page, baseURL }) => {
  const email = await signUpApi(page.request, baseURL!, 'Forgetful');
  await page.context().clearCookies();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByText(/a link is on its way/)).toBeVisible();
  await page.goto(linkIn(await mailTo(page.request, email, /Choose a new password/)));
  await page.getByLabel('New password').fill('a-brand-new-password');
  await page.getByRole('button', { name: 'Set the password' }).click();
  await expect(page.getByText(/Your password is set/)).toBeVisible();
  const old = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: PASSWORD },
    headers: { origin: baseURL! },
  });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post('/api/auth/sign-in/email', {
    data: { email, password: 'a-brand-new-password' },
    headers: { origin: baseURL! },
  });
  expect(fresh.status()).toBe(200);
});

/**
 * Someone invited by address signs up from the invitation's page: the verification link in the
 * mail leads back to that invitation, not to the team every sign-up gets, and accepting it lands
 * in the inviting team.
 */
test('an invitee who signs up from the invitation is led back to it by the verification mail', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(3 * 60_000);
  const ownerCtx = await browser.newContext();
  const owner = await ownerCtx.newPage();
  await signUpApi(owner.request, baseURL!, 'Orla Owner');
  const call = trpcOk(owner.request, baseURL!);
  const invitee = uniqueEmail('sam');
  const inv = (await call('team.invite', { role: 'member', email: invitee })) as unknown as {
    token: string;
  };

  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(linkIn(await mailTo(page.request, invitee, /invited you to/)));
  await page.getByRole('link', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/sign-up\?next=%2Finvite%2F/);
  await page.waitForLoadState('load');
  await page.getByLabel('Name').fill('Sam Invitee');
  await page.getByLabel('Email').fill(invitee);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(new RegExp(`/invite/${inv.token}$`));
  await expect(page.getByTestId('verify-email-banner')).toContainText(invitee);

  const link = linkIn(await mailTo(page.request, invitee, /Verify your email address/));
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/invite/${inv.token}$`));
  await expect(page.getByRole('heading', { name: "Join Orla's team" })).toBeVisible();
  await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/44-invite-after-verification.png` });
  await page.getByRole('button', { name: 'Accept and join' }).click();
  await expect(page).toHaveURL(/\/runs$/, { timeout: 15_000 });
  const me = (await trpcOk(page.request, baseURL!)('team.me', undefined, 'query')) as unknown as {
    active: { name: string; role: string };
  };
  expect(me.active).toMatchObject({ name: "Orla's team", role: 'member' });
  await Promise.all([ownerCtx.close(), ctx.close()]);
});
