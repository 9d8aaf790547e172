import { LoadingRegion, Skeleton } from '../ui/Skeleton.tsx';

/**
 * A heading, a few lines and two blocks: the shape of a tab whose code or data is on its way. The tabs that load
 * on demand show it while their code downloads and again while their data does, so nothing jumps in between.
 */
export function PanelSkeleton({ label }: { label: string }) {
  return (
    <LoadingRegion label={label}>
      <Skeleton width="50%" height={24} />
      <Skeleton lines={2} />
      <Skeleton height={160} />
      <Skeleton height={120} />
    </LoadingRegion>
  );
}
