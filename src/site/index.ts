/** The site feature: the home redirect, legal pages, sitemap and robots.txt. */
export { sitePages as siteRoutes } from './pages.js';
