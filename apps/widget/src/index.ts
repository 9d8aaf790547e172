/** The widget rendered inside the iframe; built with the widget issue. */
export {};
