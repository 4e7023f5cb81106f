/** The one time format of HR screens (src/shared/time-format.ts) and the pages' time tag (src/render/formatters.ts). */
import { expect } from 'chai';
import { formatTime, timeParts } from '../../src/shared/time-format.js';
import { formatCount } from '../../src/shared/format.js';
import { timeTag } from '../../src/render/formatters.js';

describe('time format', () => {
  const iso = '2026-03-15T22:05:09.123Z';

  it('names the zone, in the zone asked for, with or without seconds, or the day alone', () => {
    expect(formatTime(iso, 'time', 'UTC')).to.equal('Mar 15, 2026, 10:05 PM UTC');
    expect(formatTime(iso, 'time', 'Asia/Kolkata')).to.equal('Mar 16, 2026, 3:35 AM GMT+5:30');
    expect(formatTime(iso, 'time', 'America/New_York')).to.equal('Mar 15, 2026, 6:05 PM EDT');
    expect(formatTime(iso, 'seconds', 'UTC')).to.equal('Mar 15, 2026, 10:05:09 PM UTC');
    expect(formatTime(iso, 'date', 'UTC')).to.equal('Mar 15, 2026');
    expect(formatTime(new Date(iso), 'date', 'Asia/Tokyo')).to.equal('Mar 16, 2026');
  });

  it('splits a time only between its date and its time', () => {
    expect(timeParts(iso, 'seconds', 'Asia/Kolkata')).to.deep.equal(['Mar 16, 2026,', '3:35:09 AM', 'GMT+5:30']);
    expect(timeParts(iso, 'time', 'America/New_York')).to.deep.equal(['Mar 15, 2026,', '6:05 PM', 'EDT']);
    expect(timeParts(iso, 'date', 'UTC')).to.deep.equal(['Mar 15, 2026']);
    expect(timeParts('nonsense', 'time', 'UTC')).to.deep.equal([]);
  });

  it('answers nothing for a value that is no time, and UTC for a zone the runtime does not know', () => {
    for (const bad of ['', 'yesterday', '2026-13-45T99:00:00Z']) expect(formatTime(bad, 'time', 'UTC'), bad).to.equal('');
    expect(formatTime(iso, 'time', 'Mars/Olympus_Mons')).to.equal('Mar 15, 2026, 10:05 PM UTC');
  });

  it('writes a time tag in UTC for site.ts to rewrite in the viewer zone, escaped, and nothing for no time', () => {
    expect(timeTag(iso)).to.equal(
      '<time datetime="2026-03-15T22:05:09.123Z" data-local="time"><span class="time-part">Mar 15, 2026,</span> <span class="time-part">10:05 PM</span> <span class="time-part">UTC</span></time>',
    );
    expect(timeTag(new Date(iso), 'date')).to.equal(
      '<time datetime="2026-03-15T22:05:09.123Z" data-local="date"><span class="time-part">Mar 15, 2026</span></time>',
    );
    expect(timeTag(null)).to.equal('');
    expect(timeTag('"><script>alert(1)</script>')).to.equal('');
  });

  it('groups counts the same way everywhere', () => {
    expect(formatCount(120000)).to.equal('120,000');
    expect(formatCount(7)).to.equal('7');
  });
});
