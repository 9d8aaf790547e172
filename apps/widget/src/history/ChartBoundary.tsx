import { Component, type ReactNode } from 'react';

/** Catches a chart chunk that failed to download, so the history falls back to its table instead of breaking the app. */
export class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
