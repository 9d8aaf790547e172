/** The `/embed.js` loader partners put on their page; built with the widget issue. */
export {};
