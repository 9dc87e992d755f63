import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));

// No Docker engine runs here, but a compose client can still parse and resolve the file:
// Compose v2 (`docker compose`) when installed, else Debian's docker-compose, which setup installs.
function compose(args: string[], env: NodeJS.ProcessEnv): string {
  const file = ['-f', join(here, 'docker-compose.yml')];
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'pipe' });
    return execFileSync('docker', ['compose', ...file, ...args], { env, stdio: 'pipe' }).toString();
  } catch (err) {
    if (
      /POOLBENCH_SECRET_KEY|REDIS_PASSWORD/.test(
        (err as { stderr?: Buffer }).stderr?.toString() ?? '',
      )
    )
      throw err;
    return execFileSync('docker-compose', [...file, ...args], { env, stdio: 'pipe' }).toString();
  }
}

describe('infra/docker-compose.yml', () => {
  it('parses and names every service with a health check or a completion condition', () => {
    const out = compose(['config'], {
      ...process.env,
      POOLBENCH_SECRET_KEY: 'x',
      BETTER_AUTH_SECRET: 'y',
      REDIS_PASSWORD: 'z',
    });
    const cfg = parse(out) as {
      services: Record<string, { healthcheck?: unknown; user?: string }>;
    };
    expect(Object.keys(cfg.services).sort()).toEqual([
      'migrate',
      'postgres',
      'redis',
      'web',
      'worker',
    ]);
    for (const name of ['postgres', 'redis', 'web', 'worker'])
      expect(cfg.services[name]!.healthcheck, name).toBeDefined();
  });

  it('refuses to start without the secrets instead of running with a default key', () => {
    let message = '';
    try {
      compose(['config'], { PATH: process.env.PATH });
    } catch (err) {
      message = String((err as { stderr?: Buffer }).stderr ?? err);
    }
    expect(message).toMatch(/POOLBENCH_SECRET_KEY|REDIS_PASSWORD/);
  });

  it('runs redis with the same durability settings as the native services script', () => {
    const compose = readFileSync(join(here, 'docker-compose.yml'), 'utf8');
    const native = readFileSync(join(here, 'services.sh'), 'utf8');
    for (const s of ['appendonly', 'noeviction']) {
      expect(compose).toContain(s);
      expect(native).toContain(s);
    }
  });

  it("runs redis with the native script's ACL: default user off, the app's user without @dangerous", () => {
    const cfg = parse(readFileSync(join(here, 'docker-compose.yml'), 'utf8')) as {
      'x-app-env': Record<string, string>;
      services: Record<string, { command?: string[]; ports?: string[] }>;
    };
    const native = /^REDIS_APP_RULES='([^']+)'$/m.exec(
      readFileSync(join(here, 'services.sh'), 'utf8'),
    )![1]!;
    const cmd = cfg.services.redis!.command!.join(' ');
    expect(cmd).toContain('--user default off');
    expect(cmd).toContain(`--user poolbench on >\${REDIS_PASSWORD:?set REDIS_PASSWORD} ${native}`);
    expect(native).toContain('-@dangerous');
    expect(cfg['x-app-env'].REDIS_URL).toMatch(/^redis:\/\/poolbench:\$\{REDIS_PASSWORD:\?/);
  });

  it('publishes every port on loopback only', () => {
    const cfg = parse(readFileSync(join(here, 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { ports?: string[] }>;
    };
    const ports = Object.values(cfg.services).flatMap((s) => s.ports ?? []);
    expect(ports.length).toBeGreaterThan(0);
    for (const p of ports) expect(p).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    // inside its container the web app listens on every interface, or nothing could reach it
    expect(readFileSync(join(here, 'web.Dockerfile'), 'utf8')).toMatch(
      /^ENV .*POOLBENCH_WEB_HOST=0\.0\.0\.0/m,
    );
  });

  it('runs web and worker images as a non-root user', () => {
    for (const f of ['web.Dockerfile', 'worker.Dockerfile']) {
      const text = readFileSync(join(here, f), 'utf8');
      expect(text).toMatch(/^USER poolbench$/m);
      expect(text.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("carries bubblewrap in the images that check and run users' own k6 scripts", () => {
    for (const f of ['web.Dockerfile', 'worker.Dockerfile']) {
      const final = readFileSync(join(here, f), 'utf8')
        .split(/^FROM /m)
        .at(-1)!;
      expect(final, f).toMatch(/apt-get install[^\n]*\bbubblewrap\b/);
    }
  });
});
