/**
 * The portal's table: every cell of its rows named by its column (what a phone shows beside the
 * value) and given its role, whatever the rows' own markup.
 */
import { describe, expect, it } from 'vitest';
import { html, table } from '../../portal/html.js';

function cells(markup: string): { tag: string; role: string | null; label: string | null }[] {
  const body = markup.slice(markup.indexOf('<tbody'));
  return [...body.matchAll(/<(td|th)\b([^>]*)>/g)].map((m) => ({
    tag: m[1]!,
    role: /role="([^"]*)"/.exec(m[2]!)?.[1] ?? null,
    label: /data-label="([^"]*)"/.exec(m[2]!)?.[1] ?? null,
  }));
}

describe('table', () => {
  it('names each cell by its column, the row header included, row after row', () => {
    const rows = ['a', 'b'].map(
      (id) =>
        html`<tr class="x">
          <th scope="row">${id}</th>
          <td class="num">1</td>
          <td>${'<b>'}</td>
        </tr>`,
    );
    const t = table('Runs', ['Run', { text: 'Calls', num: true }, 'Note'], rows).text;
    expect(cells(t)).toEqual([
      { tag: 'th', role: 'rowheader', label: 'Run' },
      { tag: 'td', role: 'cell', label: 'Calls' },
      { tag: 'td', role: 'cell', label: 'Note' },
      { tag: 'th', role: 'rowheader', label: 'Run' },
      { tag: 'td', role: 'cell', label: 'Calls' },
      { tag: 'td', role: 'cell', label: 'Note' },
    ]);
    expect(t.match(/<tr role="row"/g)).toHaveLength(3);
    expect(t).toContain('<tr role="row" class="x">');
    expect(t).toContain('<td role="cell" data-label="Note">&lt;b&gt;</td>');
    expect(t).toContain('<th scope="col" role="columnheader" class="num">Calls</th>');
  });

  it('leaves a column without a header unnamed and skips the columns a colspan takes', () => {
    const rows = [
      html`<tr>
        <td colspan="2">both</td>
        <td>c</td>
      </tr>`,
      html`<tr>
        <td>a</td>
        <td>b</td>
        <td>c</td>
      </tr>`,
    ];
    expect(cells(table('Files', ['File', 'Type', ''], rows).text).map((c) => c.label)).toEqual([
      null,
      null,
      'File',
      'Type',
      null,
    ]);
  });

  it('escapes a header in its label', () => {
    const t = table(
      'T',
      ['Say "hi" <now>'],
      [
        html`<tr>
          <td>1</td>
        </tr>`,
      ],
    ).text;
    expect(t).toContain('data-label="Say &quot;hi&quot; &lt;now&gt;"');
  });

  it('says the table is empty rather than drawing one', () => {
    expect(table('Runs', ['Run'], [], 'no runs.').text).toBe('<p class="empty">Runs: no runs.</p>');
  });
});
