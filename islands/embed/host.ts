/**
 * /embed.js: put `<script src="https://careers.example.com/embed.js" async></script>` where the
 * job list should appear (optionally `data-department`, `data-location`, `data-title`,
 * `data-job-type`, `data-work-mode` to filter it, `data-target="#css-selector"` to place it
 * elsewhere). It frames /embed/jobs from the script's own origin, passes the host page's
 * utm_source, utm_medium and utm_campaign on, and sets the frame's height from the frame's
 * messages (only messages from that frame and origin count). A classic script (no module), so
 * it runs on any page.
 */
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const origin = new URL(script.src).origin;
  const params = new URLSearchParams();
  const filters: [string, string | undefined][] = [
    ['department', script.dataset.department],
    ['location', script.dataset.location],
    ['title', script.dataset.title],
    ['job_type', script.dataset.jobType],
    ['work_mode', script.dataset.workMode],
  ];
  for (const [name, value] of filters) if (value) params.set(name, value);
  const here = new URLSearchParams(window.location.search);
  for (const name of ['utm_source', 'utm_medium', 'utm_campaign']) {
    const value = here.get(name);
    if (value) params.set(name, value);
  }

  const frame = document.createElement('iframe');
  const query = params.toString();
  frame.src = `${origin}/embed/jobs${query ? `?${query}` : ''}`;
  frame.title = 'Open positions';
  frame.style.cssText = 'display:block;width:100%;height:320px;border:0;';
  const target = script.dataset.target ? document.querySelector(script.dataset.target) : null;
  if (target) target.appendChild(frame);
  else script.parentNode?.insertBefore(frame, script.nextSibling);

  window.addEventListener('message', (event) => {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    const data = event.data as { type?: unknown; height?: unknown } | null;
    if (data?.type !== 'careers:embed-height' || typeof data.height !== 'number' || !Number.isFinite(data.height)) return;
    frame.style.height = `${Math.min(Math.max(Math.round(data.height), 0), 100_000)}px`;
  });
})();
