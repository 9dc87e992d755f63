// Builds the schema folder kubeconform reads offline (`{{ .NormalizedKubernetesVersion }}-strict/
// {{ .ResourceKind }}{{ .KindSuffix }}.json`):
//  - Kubernetes' own strict schemas from kubernetes-validate, whose $refs point at
//    "/api/_definitions.json" under an https $id (its own resolver's root); rewritten to the
//    sibling file, $id dropped, so they resolve on disk.
//  - KEDA's CRDs (ScaledObject, TriggerAuthentication …): each version's openAPIV3Schema, made
//    strict as kubeconform's openapi2jsonschema does (no property it does not know).
// Usage: node prepare-schemas.mjs <k8s strict dir> <keda crd dir> <out dir>
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const [k8sDir, crdDir, outDir] = process.argv.slice(2);
if (!k8sDir || !crdDir || !outDir)
  throw new Error('usage: prepare-schemas.mjs <k8s strict dir> <keda crd dir> <out dir>');
mkdirSync(outDir, { recursive: true });

let k8s = 0;
for (const f of readdirSync(k8sDir)) {
  if (!f.endsWith('.json')) continue;
  const schema = JSON.parse(
    readFileSync(join(k8sDir, f), 'utf8').replaceAll(
      '"/api/_definitions.json#',
      '"_definitions.json#',
    ),
  );
  // Their $id (https://kubernetes.io/api/…) would make the sibling reference a web address.
  delete schema.$id;
  writeFileSync(join(outDir, f), JSON.stringify(schema));
  k8s++;
}

function strict(schema) {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(strict);
  const out = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strict(s)]))
        : strict(v);
  if (
    out.properties &&
    out.additionalProperties === undefined &&
    !out['x-kubernetes-preserve-unknown-fields']
  )
    out.additionalProperties = false;
  return out;
}

let crds = 0;
for (const f of readdirSync(crdDir)) {
  if (!f.endsWith('.yaml')) continue;
  const crd = parse(readFileSync(join(crdDir, f), 'utf8'));
  if (crd?.kind !== 'CustomResourceDefinition') continue;
  for (const v of crd.spec.versions) {
    const schema = strict(v.schema.openAPIV3Schema);
    // The CRD schema leaves apiVersion/kind/metadata open; pin the first two as the API server would.
    schema.properties.apiVersion = { type: 'string', enum: [`${crd.spec.group}/${v.name}`] };
    schema.properties.kind = { type: 'string', enum: [crd.spec.names.kind] };
    const group = crd.spec.group.split('.')[0];
    writeFileSync(
      join(outDir, `${crd.spec.names.kind.toLowerCase()}-${group}-${v.name}.json`),
      JSON.stringify(schema),
    );
    crds++;
  }
}
console.log(`[helm] ${k8s} Kubernetes schemas and ${crds} KEDA schemas in ${outDir}`);
