export { Badge, type BadgeTone } from './Badge.tsx';
export { Button, type ButtonProps } from './Button.tsx';
export { Card, type CardProps } from './Card.tsx';
export { FieldFrame, SelectField, TextField } from './Field.tsx';
export { ScreenHeader, type ScreenHeaderProps } from './ScreenHeader.tsx';
export { LoadingRegion, Skeleton, type SkeletonProps } from './Skeleton.tsx';
export { type TabItem, TabPanel, Tabs, type TabsProps, tabId, tabPanelId } from './Tabs.tsx';
