import type { Zone } from "./dns-server.ts";
import type { SiteDefinition } from "./site-definition.ts";
import { blogB } from "./sites/blog-b.ts";
import { brokenD } from "./sites/broken-d.ts";
import { forumE } from "./sites/forum-e.ts";
import { newsC } from "./sites/news-c.ts";
import { shopA } from "./sites/shop-a.ts";
import { slowF } from "./sites/slow-f.ts";

// The fixture sites, one file each under sites/: a small real-looking web property with the
// defects picked for it.

/** Every fixture site, in a fixed order. */
export function siteCatalogue(): SiteDefinition[] {
  return [shopA(), blogB(), newsC(), brokenD(), forumE(), slowF()];
}

/**
 * Names under public-looking domains whose addresses are not public: the egress guard must refuse
 * them when private targets are not allowed (the gateway checks only the syntax of a name).
 */
export const PUBLIC_LOOKING = {
  loopback: { name: "example-public.com", address: "127.0.0.5" },
  private: { name: "intranet-public.com", address: "10.255.255.1" },
} as const;

export function publicLookingZones(): Zone[] {
  return Object.values(PUBLIC_LOOKING).map(({ name, address }) => ({
    origin: name,
    names: {
      "@": { A: [address], NS: [`ns1.${name}`], TXT: ["v=spf1 -all"] },
      www: { A: [address] },
      _dmarc: { TXT: ["v=DMARC1; p=reject"] },
    },
  }));
}
