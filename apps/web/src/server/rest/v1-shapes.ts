type Json = Record<string, unknown>;

/**
 * The shape of the /api/v1 contract a client relies on: per operation, every field of its request
 * body and of its answer, with the JSON types it may have, as `{ "<operationId> <where> <path>":
 * "<types>" }` (`where` is `request` or `response`). Constraints (patterns, bounds, descriptions)
 * are left out: they may tighten or loosen within v1, a field's presence and type may not.
 */
export function v1Shapes(doc: Json): Record<string, string> {
  const components = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  const out: Record<string, string> = {};
  const walk = (schema: Json | undefined, path: string, key: string, depth: number) => {
    if (!schema || depth > 12) return;
    if (typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').at(-1)!;
      walk(components[name], path, key, depth + 1);
      return;
    }
    const variants = [
      ...(((schema.anyOf ?? schema.oneOf) as Json[] | undefined) ?? []),
      ...((schema.allOf as Json[] | undefined) ?? []),
    ];
    const types = new Set<string>();
    const collect = (s: Json) => {
      if (typeof s.$ref === 'string') {
        const target = components[s.$ref.split('/').at(-1)!];
        if (target) collect(target);
        return;
      }
      const t = s.type;
      if (Array.isArray(t)) t.forEach((x) => types.add(String(x)));
      else if (typeof t === 'string') types.add(t);
      else if (s.const !== undefined) types.add(typeof s.const);
      else if (Array.isArray(s.enum)) types.add(typeof s.enum[0]);
      for (const v of [
        ...(((s.anyOf ?? s.oneOf) as Json[] | undefined) ?? []),
        ...((s.allOf as Json[] | undefined) ?? []),
      ])
        collect(v);
    };
    collect(schema);
    if (path) {
      // a oneOf variant that only narrows a field (a pattern, an enum) says nothing of its type
      const k = `${key} ${path}`;
      const seen = new Set(out[k] && out[k] !== 'any' ? out[k].split('|') : []);
      for (const t of types) seen.add(t);
      out[k] = [...seen].sort().join('|') || 'any';
    }
    for (const s of [schema, ...variants]) {
      const resolved =
        typeof s.$ref === 'string' ? (components[s.$ref.split('/').at(-1)!] ?? s) : s;
      for (const [name, p] of Object.entries((resolved.properties ?? {}) as Record<string, Json>))
        walk(p, path ? `${path}.${name}` : name, key, depth + 1);
      if (resolved.items) walk(resolved.items as Json, `${path}[]`, key, depth + 1);
    }
  };
  for (const methods of Object.values((doc.paths ?? {}) as Record<string, Json>))
    for (const op of Object.values(methods) as Json[]) {
      const id = String(op.operationId);
      const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
      walk(
        (body?.['application/json'] as Json | undefined)?.schema as Json,
        '',
        `${id} request`,
        0,
      );
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (!status.startsWith('2')) continue;
        const c = (r.content as Json | undefined)?.['application/json'] as Json | undefined;
        out[`${id} response`] = status;
        walk(c?.schema as Json, '', `${id} response`, 0);
      }
    }
  return out;
}
