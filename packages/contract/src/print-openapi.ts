// Prints the OpenAPI document: the sandbox's (every operation) by default, production's with `--environment production`.
import { buildOpenApiDocument, type OpenApiEnvironment } from './openapi.ts';

const flag = process.argv.indexOf('--environment');
const environment = (flag === -1 ? 'sandbox' : process.argv[flag + 1]) as OpenApiEnvironment;
if (environment !== 'sandbox' && environment !== 'production') {
  process.stderr.write('--environment takes sandbox or production\n');
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(buildOpenApiDocument('/', { environment }), null, 2)}\n`);
