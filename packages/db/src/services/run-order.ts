export interface Cell {
  poolConfigIndex: number;
  scenarioIndex: number;
  repeatIndex: number;
}

/**
 * Execution order of an experiment's runs. Interleaved (the default) runs every config once per
 * repeat before the next repeat (A B A B …), so drift in the machine over time spreads evenly
 * over the configs instead of landing on whichever ran last; blocked runs A A B B.
 */
export function runOrder(
  poolConfigs: number,
  scenarios: number,
  repeats: number,
  order: 'interleaved' | 'blocked',
): Cell[] {
  const cells: Cell[] = [];
  if (order === 'interleaved') {
    for (let r = 0; r < repeats; r++)
      for (let s = 0; s < scenarios; s++)
        for (let c = 0; c < poolConfigs; c++)
          cells.push({ poolConfigIndex: c, scenarioIndex: s, repeatIndex: r });
  } else {
    for (let s = 0; s < scenarios; s++)
      for (let c = 0; c < poolConfigs; c++)
        for (let r = 0; r < repeats; r++)
          cells.push({ poolConfigIndex: c, scenarioIndex: s, repeatIndex: r });
  }
  return cells;
}
