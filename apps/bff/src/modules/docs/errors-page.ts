import { ERROR_CODES, OAUTH_ERRORS } from '@credit/contract';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

/** The contract's texts use `code` spans; nothing else of markdown. */
const inlineCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const OAUTH_EXPLANATIONS: Record<keyof typeof OAUTH_ERRORS, string> = {
  invalid_request: 'The token request is malformed: a missing or repeated parameter, or the wrong content type.',
  invalid_client: 'The client id or secret is wrong, or the credentials are for the other environment.',
  invalid_grant: 'The grant is not valid for this client.',
  unauthorized_client: 'This client may not use this grant type.',
  unsupported_grant_type: 'Only `client_credentials` is supported.',
  invalid_scope: 'A requested scope is unknown or not granted to this client.',
};

/**
 * `/docs/errors`: every error code with its status, when it happens and what to do, each under an anchor
 * (`/docs/errors#CREDIT_FROZEN`) that the reference's responses link to. Rendered once from the contract.
 */
export const renderErrorsPage = (): string => {
  const apiErrors = Object.entries(ERROR_CODES)
    .map(
      ([code, { status, when, fix }]) => `<section id="${code}">
<h2><a href="#${code}">${code}</a> <small>HTTP ${status}</small></h2>
<p><strong>When:</strong> ${inlineCode(when)}</p>
<p><strong>What to do:</strong> ${inlineCode(fix)}</p>
</section>`,
    )
    .join('\n');
  const oauthErrors = Object.entries(OAUTH_ERRORS)
    .map(
      ([code, status]) => `<section id="${code}">
<h3><a href="#${code}">${code}</a> <small>HTTP ${status}</small></h3>
<p>${inlineCode(OAUTH_EXPLANATIONS[code as keyof typeof OAUTH_ERRORS])}</p>
</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Credit API errors</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h2,h3{margin-bottom:.25rem}small{color:#555;font-weight:normal}code{background:#f2f2f2;padding:0 .2em;border-radius:3px}
section{border-top:1px solid #ddd;padding-top:.5rem}:target{background:#fff8d6}</style></head>
<body><h1>Errors</h1>
<p>Every error answer is <code>{"error":{"code","message","details"?,"retryAfter"?,"unlocksAt"?},"meta":{"requestId","timestamp"}}</code>.
Branch on <code>code</code>, never on <code>message</code>; quote <code>meta.requestId</code> to support.
<a href="/docs">Back to the reference</a>.</p>
${apiErrors}
<h2 id="oauth">OAuth errors (<code>POST /oauth/token</code>)</h2>
<p>The token endpoint answers RFC 6749 errors: <code>{"error","error_description"}</code>.</p>
${oauthErrors}
</body></html>`;
};
