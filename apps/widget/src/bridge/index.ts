export { ScreenState, type WidgetScreen } from './events.ts';
export { HostBridge, type HostBridgeEnvironment, type HostConnection } from './host.ts';
export { forgetLaunchToken, type LaunchContext, type LaunchMode, type LaunchSettings, readLaunchContext } from './launch.ts';
export { observeContentHeight } from './resize.ts';
