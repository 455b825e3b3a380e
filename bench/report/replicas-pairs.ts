import { ReplicasCell, ReplicasTargetKey } from './results';

/** Each cell of `key` with the cell of `other` at the same connection count, when there is one. */
export function pairedCells(
  cells: readonly ReplicasCell[],
  key: ReplicasTargetKey,
  other: ReplicasTargetKey,
): Array<[ReplicasCell, ReplicasCell]> {
  return cells
    .filter((cell) => cell.target === key)
    .flatMap((cell) => {
      const match = cells.find((c) => c.target === other && c.connections === cell.connections);
      return match ? [[cell, match] as [ReplicasCell, ReplicasCell]] : [];
    });
}
