import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDMMF } from '@prisma/get-dmmf';
import type pg from 'pg';

/**
 * Drift check between schema.prisma and a migrated database. `prisma migrate diff` needs the
 * native schema engine, which cannot be installed here, so this compares the Prisma datamodel
 * (DMMF from the WASM schema parser) with what Postgres reports: tables, columns (type,
 * nullability, list), enums, primary keys, unique constraints, indexes and foreign keys.
 */
export const SCHEMA_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'prisma',
  'schema.prisma',
);

export interface ColumnShape {
  type: string;
  nullable: boolean;
}
export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string;
  uniques: string[];
  indexes: string[];
  foreignKeys: string[];
  /** e.g. 'RANGE (ts)'; '' for a plain table. In schema.prisma: a `/// @partitioned RANGE (ts)` model comment. */
  partitionKey: string;
}
export interface DbShape {
  tables: Record<string, TableShape>;
  enums: Record<string, string>;
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Float: 'float8',
  Boolean: 'bool',
  DateTime: 'timestamp',
  Json: 'jsonb',
  Bytes: 'bytea',
  Decimal: 'numeric',
};
const NATIVE_TYPES: Record<string, string> = {
  Timestamptz: 'timestamptz',
  Timestamp: 'timestamp',
  VarChar: 'varchar',
  Uuid: 'uuid',
  Text: 'text',
  Integer: 'int4',
  SmallInt: 'int2',
  DoublePrecision: 'float8',
  Real: 'float4',
  JsonB: 'jsonb',
  Json: 'json',
};
const ON_DELETE: Record<string, string> = {
  Cascade: 'CASCADE',
  SetNull: 'SET NULL',
  Restrict: 'RESTRICT',
  NoAction: 'NO ACTION',
  SetDefault: 'SET DEFAULT',
};

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isList: boolean;
  isRequired: boolean;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  documentation?: string;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  fields: { name: string }[];
  dbName?: string | null;
}

const cols = (names: string[]) => names.join(',');

/**
 * Prisma cannot declare partial unique indexes. The schema lists them as `@@index(..., map:
 * "<Model>_<cols>_live_key")`, and the migrations create them unique among live rows
 * (`WHERE "archivedAt" IS NULL`); both sides read as `cols WHERE archivedAt IS NULL` here.
 */
const LIVE_KEY_SUFFIX = '_live_key';
const LIVE_PREDICATE = 'WHERE archivedAt IS NULL';

/** `("archivedAt" IS NULL)` as Postgres prints it, in the form above. */
const predicateText = (pred: string) =>
  `WHERE ${pred.replace(/^\((.*)\)$/, '$1').replaceAll('"', '')}`;

/** The shape the datamodel promises, from schema text. */
export function shapeFromSchema(schemaText: string): DbShape {
  const doc = getDMMF({ datamodel: schemaText });
  if (!('datamodel' in doc)) throw new Error(`schema.prisma does not parse: ${doc.reason}`);
  const dm = doc.datamodel as unknown as {
    models: DmmfModel[];
    enums: {
      name: string;
      dbName?: string | null;
      values: { name: string; dbName?: string | null }[];
    }[];
    indexes: DmmfIndex[];
  };
  const shape: DbShape = { tables: {}, enums: {} };
  const tableOf = new Map(dm.models.map((m) => [m.name, m.dbName ?? m.name]));
  const enumNames = new Set(dm.enums.map((e) => e.name));
  for (const e of dm.enums)
    shape.enums[e.dbName ?? e.name] = e.values.map((v) => v.dbName ?? v.name).join(',');
  for (const m of dm.models) {
    const colName = (f: string) => m.fields.find((x) => x.name === f)?.dbName ?? f;
    // Prisma has no attribute for partitioning; the model's doc comment states it and this checks it.
    const partitionKey =
      /@partitioned\s+(\w+\s*\([^)]*\))/.exec(m.documentation ?? '')?.[1]?.replace(/\s+\(/, ' (') ??
      '';
    const t: TableShape = {
      columns: {},
      primaryKey: '',
      uniques: [],
      indexes: [],
      foreignKeys: [],
      partitionKey,
    };
    for (const f of m.fields) {
      if (f.kind === 'object') {
        if (f.relationFromFields && f.relationFromFields.length > 0) {
          const from = f.relationFromFields.map(colName);
          const target = dm.models.find((x) => x.name === f.type)!;
          const to = (f.relationToFields ?? []).map(
            (n) => target.fields.find((x) => x.name === n)?.dbName ?? n,
          );
          const optional = f.relationFromFields.some(
            (n) => !m.fields.find((x) => x.name === n)?.isRequired,
          );
          const onDelete = f.relationOnDelete
            ? ON_DELETE[f.relationOnDelete]!
            : optional
              ? 'SET NULL'
              : 'RESTRICT';
          t.foreignKeys.push(
            `${cols(from)}->${tableOf.get(f.type)}(${cols(to)}) ON DELETE ${onDelete}`,
          );
        }
        continue;
      }
      const base = enumNames.has(f.type)
        ? f.type
        : f.nativeType
          ? (NATIVE_TYPES[f.nativeType[0]] ?? f.nativeType[0].toLowerCase())
          : (SCALAR_TYPES[f.type] ?? f.type);
      // Postgres arrays are always nullable at the column level; Prisma creates them without NOT NULL.
      t.columns[f.dbName ?? f.name] = {
        type: f.isList ? `${base}[]` : base,
        nullable: f.isList ? true : !f.isRequired,
      };
    }
    for (const idx of dm.indexes.filter((i) => i.model === m.name)) {
      const c = cols(idx.fields.map((x) => colName(x.name)));
      if (idx.type === 'id') t.primaryKey = c;
      else if (idx.type === 'unique') t.uniques.push(c);
      else if (idx.dbName?.endsWith(LIVE_KEY_SUFFIX)) t.uniques.push(`${c} ${LIVE_PREDICATE}`);
      else t.indexes.push(c);
    }
    t.uniques.sort();
    t.indexes.sort();
    t.foreignKeys.sort();
    shape.tables[m.dbName ?? m.name] = t;
  }
  return shape;
}

const DELETE_RULES: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

// Partitions are storage of their parent table, not tables of the datamodel.
const PARTITIONS = `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relispartition`;

/** The shape a live database has (schema `public`, Prisma's bookkeeping table and partitions excluded). */
export async function shapeFromDatabase(client: pg.Client | pg.Pool): Promise<DbShape> {
  const shape: DbShape = { tables: {}, enums: {} };
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: string;
  }>(
    `SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
       AND table_name NOT IN (${PARTITIONS}) ORDER BY table_name, ordinal_position`,
  );
  for (const c of columns.rows) {
    const t = (shape.tables[c.table_name] ??= {
      columns: {},
      primaryKey: '',
      uniques: [],
      indexes: [],
      foreignKeys: [],
      partitionKey: '',
    });
    const type = c.udt_name.startsWith('_') ? `${c.udt_name.slice(1)}[]` : c.udt_name;
    t.columns[c.column_name] = { type, nullable: c.is_nullable === 'YES' };
  }
  const enums = await client.query<{ name: string; vals: string }>(
    `SELECT t.typname AS name, string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS vals
     FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = 'public' GROUP BY t.typname`,
  );
  for (const e of enums.rows) shape.enums[e.name] = e.vals;
  const indexes = await client.query<{
    table: string;
    cols: string;
    primary: boolean;
    unique: boolean;
    pred: string | null;
  }>(
    `SELECT c.relname AS table, i.indisprimary AS primary, i.indisunique AS unique, pg_get_expr(i.indpred, i.indrelid) AS pred,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(i.indkey) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) AS cols
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relname <> '_prisma_migrations' AND NOT c.relispartition`,
  );
  for (const i of indexes.rows) {
    const t = shape.tables[i.table];
    if (!t) continue;
    const c = i.pred ? `${i.cols} ${predicateText(i.pred)}` : i.cols;
    if (i.primary) t.primaryKey = c;
    else if (i.unique) t.uniques.push(c);
    else t.indexes.push(c);
  }
  const fks = await client.query<{
    table: string;
    cols: string;
    ref: string;
    refcols: string;
    del: string;
  }>(
    `SELECT c.relname AS table, r.relname AS ref, con.confdeltype AS del,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) AS cols,
            (SELECT string_agg(a.attname, ',' ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum = k.attnum) AS refcols
     FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE con.contype = 'f' AND n.nspname = 'public' AND NOT c.relispartition`,
  );
  for (const f of fks.rows) {
    shape.tables[f.table]?.foreignKeys.push(
      `${f.cols}->${f.ref}(${f.refcols}) ON DELETE ${DELETE_RULES[f.del] ?? f.del}`,
    );
  }
  const parts = await client.query<{ table: string; key: string }>(
    `SELECT c.relname AS table, pg_get_partkeydef(c.oid) AS key FROM pg_partitioned_table p
     JOIN pg_class c ON c.oid = p.partrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
  );
  for (const p of parts.rows)
    if (shape.tables[p.table]) shape.tables[p.table]!.partitionKey = p.key;
  for (const t of Object.values(shape.tables)) {
    t.uniques.sort();
    t.indexes.sort();
    t.foreignKeys.sort();
  }
  return shape;
}

/** Every difference, phrased for a person: empty when the database matches the datamodel. */
export function diffShapes(expected: DbShape, actual: DbShape): string[] {
  const out: string[] = [];
  const setDiff = (what: string, table: string, exp: string[], act: string[]) => {
    for (const x of exp)
      if (!act.includes(x))
        out.push(`${table}: ${what} (${x}) is in schema.prisma but not in the database`);
    for (const x of act)
      if (!exp.includes(x))
        out.push(`${table}: ${what} (${x}) is in the database but not in schema.prisma`);
  };
  for (const [name, vals] of Object.entries(expected.enums)) {
    if (!(name in actual.enums)) out.push(`enum ${name} is missing in the database`);
    else if (actual.enums[name] !== vals)
      out.push(`enum ${name}: schema has [${vals}], database has [${actual.enums[name]}]`);
  }
  for (const name of Object.keys(actual.enums))
    if (!(name in expected.enums))
      out.push(`enum ${name} is in the database but not in schema.prisma`);
  for (const [name, exp] of Object.entries(expected.tables)) {
    const act = actual.tables[name];
    if (!act) {
      out.push(`table ${name} is missing in the database`);
      continue;
    }
    for (const [col, c] of Object.entries(exp.columns)) {
      const a = act.columns[col];
      if (!a) out.push(`${name}.${col} is missing in the database`);
      else {
        if (a.type !== c.type)
          out.push(`${name}.${col}: schema type ${c.type}, database type ${a.type}`);
        if (a.nullable !== c.nullable)
          out.push(
            `${name}.${col}: schema says ${c.nullable ? 'nullable' : 'NOT NULL'}, database says ${a.nullable ? 'nullable' : 'NOT NULL'}`,
          );
      }
    }
    for (const col of Object.keys(act.columns))
      if (!(col in exp.columns))
        out.push(`${name}.${col} is in the database but not in schema.prisma`);
    if (exp.primaryKey !== act.primaryKey)
      out.push(
        `${name}: primary key (${exp.primaryKey}) in schema, (${act.primaryKey}) in database`,
      );
    setDiff('unique', name, exp.uniques, act.uniques);
    setDiff('index', name, exp.indexes, act.indexes);
    setDiff('foreign key', name, exp.foreignKeys, act.foreignKeys);
    if (exp.partitionKey !== act.partitionKey) {
      out.push(
        `${name}: partitioned by ${exp.partitionKey || 'nothing'} in schema, by ${act.partitionKey || 'nothing'} in database`,
      );
    }
  }
  for (const name of Object.keys(actual.tables))
    if (!(name in expected.tables))
      out.push(`table ${name} is in the database but not in schema.prisma`);
  return out;
}
