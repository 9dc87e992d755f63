import { Badge } from '~/components/ui/badge';
import { Card, CardBody, CardHeader } from '~/components/ui/card';
import { CodeBlock } from '~/components/ui/code-block';
import { Table, Td, Th } from '~/components/ui/table';

interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  'x-required-scope': string;
  parameters: {
    name: string;
    in: string;
    required: boolean;
    description?: string;
    schema: Schema;
  }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

const refName = (s: Schema) => s.$ref?.split('/').pop() ?? null;

function typeOf(s: Schema): string {
  if (s.$ref) return refName(s)!;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeOf).join(' | ');
  if (s.type === 'array' && s.items) return `${typeOf(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
}

/** Top-level fields of an object schema (or of each variant of a union) as a table. */
function Fields({ schema, schemas }: { schema: Schema; schemas: Record<string, unknown> }) {
  const resolved = (refName(schema) ? schemas[refName(schema)!] : schema) as Schema;
  const variants = resolved.oneOf ?? resolved.anyOf ?? [resolved];
  return (
    <div className="space-y-3">
      {variants.map((v, i) => (
        <Table key={i}>
          <thead>
            <tr>
              <Th>field</Th>
              <Th>type</Th>
              <Th>description</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {Object.entries(v.properties ?? {}).map(([name, p]) => (
              <tr key={name}>
                <Td>
                  <code>{name}</code>
                  {v.required?.includes(name) ? <span className="text-red-700">*</span> : null}
                </Td>
                <Td>
                  <code className="text-xs">{typeOf(p)}</code>
                </Td>
                <Td className="text-xs text-slate-600">{p.description ?? ''}</Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ))}
    </div>
  );
}

export function OpenApiOperation({
  path,
  method,
  op,
  schemas,
}: {
  path: string;
  method: string;
  op: OperationDoc;
  schemas: Record<string, unknown>;
}) {
  const body = op.requestBody ? Object.values(op.requestBody.content)[0]?.schema : undefined;
  return (
    <Card id={op.operationId}>
      <CardHeader
        title={
          <span className="font-mono text-sm">
            <Badge tone={method === 'get' ? 'blue' : 'green'}>{method.toUpperCase()}</Badge> {path}
          </span>
        }
        description={`${op.summary} · scope ${op['x-required-scope']}`}
      />
      <CardBody className="space-y-4 text-sm">
        {op.description ? <p className="text-slate-700">{op.description}</p> : null}
        {op.parameters.length ? (
          <Table>
            <thead>
              <tr>
                <Th>parameter</Th>
                <Th>in</Th>
                <Th>type</Th>
                <Th>description</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <Td>
                    <code>{p.name}</code>
                    {p.required ? <span className="text-red-700">*</span> : null}
                  </Td>
                  <Td>{p.in}</Td>
                  <Td>
                    <code className="text-xs">{typeOf(p.schema)}</code>
                  </Td>
                  <Td className="text-xs text-slate-600">{p.description ?? ''}</Td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
        {body ? (
          <div className="space-y-2">
            <h3 className="font-medium text-slate-900">Request body ({refName(body)})</h3>
            <Fields schema={body} schemas={schemas} />
          </div>
        ) : null}
        <div className="space-y-1">
          <h3 className="font-medium text-slate-900">Responses</h3>
          <ul className="list-inside list-disc text-slate-700">
            {Object.entries(op.responses).map(([status, r]) => {
              const s = r.content ? Object.values(r.content)[0]?.schema : undefined;
              return (
                <li key={status}>
                  <code>{status}</code> {r.description}
                  {s && refName(s) && refName(s) !== 'Problem' ? (
                    <>
                      {' '}
                      — <code>{refName(s)}</code>
                    </>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </div>
        <details>
          <summary className="cursor-pointer text-slate-600">JSON Schemas</summary>
          <CodeBlock
            label={op.operationId}
            code={JSON.stringify(
              Object.fromEntries(
                [body, Object.values(op.responses)[0]?.content?.['application/json']?.schema]
                  .filter((s): s is Schema => !!s?.$ref)
                  .map((s) => [refName(s), schemas[refName(s)!]]),
              ),
              null,
              2,
            )}
          />
        </details>
      </CardBody>
    </Card>
  );
}
