/** The embeds feature: the job list other sites frame (/embed/jobs) and the script that frames it (/embed.js). */
export { embedPages as embedRoutes } from './pages.js';
