import { type KeyboardEvent, type ReactNode, useRef } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
  /** Extra content after the label, e.g. an unread-count badge; include its meaning in words. */
  badge?: ReactNode;
}

export interface TabsProps<T extends string> {
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect(id: T): void;
  /** Accessible name of the tab list, e.g. "Credit dashboard". */
  label: string;
  /** Prefix for element ids; tab `x` gets id `${idPrefix}-tab-x` and controls panel `${idPrefix}-panel-x`. */
  idPrefix?: string;
}

export const tabId = (idPrefix: string, id: string) => `${idPrefix}-tab-${id}`;
export const tabPanelId = (idPrefix: string, id: string) => `${idPrefix}-panel-${id}`;

/**
 * WAI-ARIA tabs with roving tabindex: one Tab stop, arrows/Home/End move and select (automatic
 * activation; every panel loads quickly enough).
 */
export function Tabs<T extends string>({ tabs, selected, onSelect, label, idPrefix = 'cw' }: TabsProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target];
    if (!next) return;
    onSelect(next.id);
    listRef.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabId(idPrefix, next.id))}`)?.focus();
  };
  return (
    <div ref={listRef} role="tablist" aria-label={label} className="cw-tabs">
      {tabs.map((tab, index) => {
        const isSelected = tab.id === selected;
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={tabId(idPrefix, tab.id)}
            aria-selected={isSelected}
            aria-controls={tabPanelId(idPrefix, tab.id)}
            tabIndex={isSelected ? 0 : -1}
            className={`cw-tab ${isSelected ? 'cw-tab--selected' : ''}`}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => move(event, index)}
          >
            <span>{tab.label}</span>
            {tab.badge}
          </button>
        );
      })}
    </div>
  );
}

/** The panel for the selected tab; render only the selected one. */
export function TabPanel({ idPrefix = 'cw', id, children }: { idPrefix?: string; id: string; children: ReactNode }) {
  return (
    <div role="tabpanel" id={tabPanelId(idPrefix, id)} aria-labelledby={tabId(idPrefix, id)} className="cw-tabpanel">
      {children}
    </div>
  );
}
