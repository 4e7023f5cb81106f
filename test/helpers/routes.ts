/** The app's routes as (method, path pattern), found by walking its routers: for tests that must cover routes added later. */
import type { Express } from 'express';

export interface RouteInfo {
  method: string;
  pattern: string;
}

/** Every route of the app as (method, path pattern), descending into mounted routers. */
export function registeredRoutes(app: Express): RouteInfo[] {
  const out: RouteInfo[] = [];
  const walk = (stack: any[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const p of paths) {
          if (typeof p !== 'string') throw new Error(`route with a non-string path under "${prefix}": extend registeredRoutes`);
          for (const method of Object.keys(layer.route.methods))
            if (method !== '_all') out.push({ method: method.toUpperCase(), pattern: prefix + p });
        }
      } else if (layer.handle?.stack) {
        if (!layer.slash && typeof layer.rawPath !== 'string')
          throw new Error('router mounted on a non-string path: extend registeredRoutes');
        walk(layer.handle.stack, prefix + (layer.slash ? '' : layer.rawPath));
      }
    }
  };
  walk((app as any).router.stack, '');
  return out;
}

/** A concrete path for a pattern: parameters become 1, optional parts are kept. */
export function concrete(pattern: string): string {
  return pattern.replace(/[{}]/g, '').replace(/:\w+/g, '1').replace(/\*\w+/g, 'x');
}
