/** One CSV field: quoted when it holds a comma, a quote or a line break; a formula's first character is neutralised. */
const field = (value: string | number): string => {
  let text = String(value);
  // A spreadsheet runs a cell starting with = + - @ as a formula: a leading apostrophe keeps it text.
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const toCsv = (header: string[], rows: (string | number)[][]): string =>
  `${[header, ...rows].map((row) => row.map(field).join(',')).join('\r\n')}\r\n`;

/** Hands `text` to the browser as a file download. */
export const downloadCsv = (fileName: string, text: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
};
