import type { KitPackage } from './manifest.ts';

export const KIT_PATH = '/kit';

/** `@credit/sdk` → `credit-sdk.tgz`: the name under /kit that always leads to this build's tarball of the package. */
export const latestFileOf = (name: string): string => `${name.replace(/^@/, '').replace('/', '-')}.tgz`;

export interface KitListing {
  /** The one command that installs the kit in a partner's project: every tarball, so npm finds the SDK's contract. */
  install: string;
  /** The same without @credit/react, for a server that shows no widget (React is the React package's peer). */
  installServer: string;
  packages: (KitPackage & { url: string; latestUrl: string })[];
  notes: string[];
  docs: string;
}

/** What GET /kit answers, with absolute URLs from the API's public address. */
export const kitListing = (packages: readonly KitPackage[], baseUrl: string): KitListing => {
  const listed = packages.map(({ name, version, file, size, integrity }) => ({
    name,
    version,
    file,
    size,
    integrity,
    url: `${baseUrl}${KIT_PATH}/${file}`,
    latestUrl: `${baseUrl}${KIT_PATH}/${latestFileOf(name)}`,
  }));
  const command = (pkgs: typeof listed) => ['npm install', ...pkgs.map((pkg) => pkg.url)].join(' ');
  return {
    install: command(listed),
    installServer: command(listed.filter((pkg) => pkg.name !== '@credit/react')),
    packages: listed,
    notes: [
      '@credit/sdk depends on @credit/contract at the version listed here, which is not on the npm registry yet: install their tarballs in one command, as `install` does.',
      'Each url names this build of its package and never changes content; latestUrl redirects to the tarball of the build this API runs.',
      'On the npm registry the packages will be @credit/sdk, @credit/react and @credit/contract; until they are published, this list is the way to install them.',
    ],
    docs: 'docs/partner/install.md',
  };
};
