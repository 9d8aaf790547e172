export { dashboardView, emitEvent, reportScreen, setInitialView, useCurrentView, type WidgetScreen } from './events.ts';
export { connectToHost, requestFreshToken } from './host.ts';
export { forgetLaunchToken, type LaunchContext, type LaunchMode, type LaunchSettings, readLaunchContext } from './launch.ts';
export { observeContentHeight } from './resize.ts';
