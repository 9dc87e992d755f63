/**
 * What a managed target's data set costs the lab database server. Each shape (rows × fields …)
 * has a database of its own there, kept while targets use it, so an installation caps the cells
 * (rows × fields) of one shape.
 *
 * Measured on Postgres 15 (`pg_database_size`): 10 000 × 40 takes 33.6 MB and 10 000 × 50 takes
 * 43.2 MB, about 84 bytes per cell either way; roles, permissions and shards add little.
 */
export const LAB_BYTES_PER_CELL = 84;

/** The cap on rows × fields of one shape unless the installation sets `LAB_MAX_DATA_CELLS`. */
export const LAB_DATA_CELLS_CAP_DEFAULT = 10_000_000;

export function labDataCellsCap(env: Record<string, string | undefined>): number {
  const v = Number(env.LAB_MAX_DATA_CELLS);
  return Number.isSafeInteger(v) && v > 0 ? v : LAB_DATA_CELLS_CAP_DEFAULT;
}

/** About how many bytes a shape's database takes on the lab server. */
export function labDataBytes(setup: { rows: number; fields: number }): number {
  return setup.rows * setup.fields * LAB_BYTES_PER_CELL;
}

/** "33.6 MB", "1.7 GB": a size as people read it (decimal units, as disk sizes are sold). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  const digits = i === 0 ? String(v) : v.toPrecision(3);
  // trailing zeros of the fraction only: 84.0 is 84, 840 stays 840
  return `${digits.includes('.') ? digits.replace(/\.?0+$/, '') : digits} ${units[i]}`;
}

/**
 * Why a shape is too large for this installation, or null when it fits: the message names the
 * cells, the cap and the disk it would take.
 */
export function labDataTooLarge(
  setup: { rows: number; fields: number },
  cap: number,
): string | null {
  const cells = setup.rows * setup.fields;
  if (cells <= cap) return null;
  return (
    `${setup.rows.toLocaleString('en-US')} rows × ${setup.fields} fields = ` +
    `${cells.toLocaleString('en-US')} cells (about ${formatBytes(labDataBytes(setup))} on the lab ` +
    `database server) is more than this installation allows: ${cap.toLocaleString('en-US')} cells ` +
    `(about ${formatBytes(cap * LAB_BYTES_PER_CELL)}; LAB_MAX_DATA_CELLS)`
  );
}
