import { env } from '~/server/env';
import { buildOpenApi } from '~/server/rest/openapi';
import { PROBLEM_CODES } from '~/server/rest/problem';
import { OpenApiOperation, type OperationDoc } from './operation';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { PageHeader } from '~/components/ui/page-header';
import { Table, Td, Th } from '~/components/ui/table';

export const metadata = { title: 'REST API' };
export const dynamic = 'force-dynamic';

/** Rendered from the same OpenAPI document that /api/openapi.json serves, so the two agree. */
export default function Page() {
  const origin = env.BETTER_AUTH_URL.replace(/\/$/, '');
  const doc = buildOpenApi(origin) as {
    info: { description: string };
    paths: Record<string, Record<string, OperationDoc>>;
    components: { schemas: Record<string, unknown> };
  };
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
  return (
    <>
      <PageHeader
        title="REST API"
        description="Start experiments from CI, read results and gate on a baseline. Machine-readable: /api/openapi.json (OpenAPI 3.1)."
      />
      <div className="space-y-6">
        <Card>
          <CardHeader title="Getting started" />
          <CardBody className="space-y-3 text-sm text-slate-700">
            <p>
              Create a token in Settings → API tokens (admins), then send it as a bearer token. The{' '}
              <code>poolbench</code> CLI wraps all of this (see docs/ci.md); this server serves it
              as one file that needs only Node ≥ 20.19:
            </p>
            <CodeBlock
              label="CLI"
              code={`curl -fsSL ${origin}/api/v1/cli/poolbench.mjs -o poolbench.mjs\nnode poolbench.mjs run --help`}
            />
            <CodeBlock
              label="curl"
              code={`curl -sS -X POST ${origin}/api/v1/experiments \\\n  -H "Authorization: Bearer $POOLBENCH_TOKEN" \\\n  -H "Idempotency-Key: $CI_JOB_ID" \\\n  -H "Content-Type: application/json" \\\n  -d '{"kind":"saved","experiment":"nightly"}'`}
            />
            <p>
              Every error is <code>application/problem+json</code> with a stable <code>code</code>;
              requests are limited per token (429 with <code>Retry-After</code>). The
              machine-readable document is at{' '}
              <a className="text-brand-700 underline" href="/api/openapi.json">
                /api/openapi.json
              </a>
              .
            </p>
          </CardBody>
        </Card>
        <Card>
          <CardHeader title="Error codes" />
          <CardBody className="p-0">
            <Table className="rounded-none border-0 shadow-none">
              <thead>
                <tr>
                  <Th>code</Th>
                  <Th>HTTP status</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {Object.entries(PROBLEM_CODES).map(([code, status]) => (
                  <tr key={code}>
                    <Td>
                      <code>{code}</code>
                    </Td>
                    <Td>{status}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </CardBody>
        </Card>
        {ops.map(({ path, method, op }) => (
          <OpenApiOperation
            key={`${method} ${path}`}
            path={`/api/v1${path}`}
            method={method}
            op={op}
            schemas={doc.components.schemas}
          />
        ))}
      </div>
    </>
  );
}
