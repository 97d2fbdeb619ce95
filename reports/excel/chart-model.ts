/**
 * What a native Excel chart is: its type, the cells it plots (categories and series, their
 * values cached) on its sheet or another, and the cells its frame is anchored to.
 */

/** How a native chart is drawn. */
export type NativeChartType =
  'bar' | 'horizontal_bar' | 'line' | 'combo' | 'pie' | 'doughnut' | 'stacked_bar' | 'stacked_horizontal_bar';

/** Rows `firstRow` to `lastRow` of column `col` (1-based) of the chart's sheet. */
export interface CellColumn {
  col: number;
  firstRow: number;
  lastRow: number;
}

/** One series: the cells it plots and the values in them. */
export interface NativeSeries {
  /** The legend name; `nameCell` (1-based) is the cell it is read from, when there is one. */
  name: string;
  nameCell?: { row: number; col: number };
  values: CellColumn;
  /** The values in `values`, cached for viewers that do not recalculate; null is no point. */
  cache: readonly (number | null)[];
  /** The number format of the values (the first series' is the value axis's). */
  formatCode?: string;
  /** In a combo: bars (default) or a line. */
  draw?: 'bar' | 'line';
  /** In a combo: on the second value axis, at the right. */
  secondary?: boolean;
}

/** A cell corner: column and row (0-based) and an offset into the cell in EMU. */
export interface AnchorCell {
  col: number;
  row: number;
  colOff?: number;
  rowOff?: number;
}

/** A chart on a sheet, its references on that sheet or on `dataSheet`. */
export interface NativeChart {
  /** The name of the sheet it is drawn on, as the workbook has it (any quotes, spaces and scripts). */
  sheet: string;
  /** The sheet of the cells it plots, when not `sheet`. */
  dataSheet?: string;
  type: NativeChartType;
  title: string;
  categories: CellColumn & { cache: readonly string[] };
  series: readonly NativeSeries[];
  /** The corners of the chart's frame: it moves with the cells, keeping its size. */
  anchor: { from: AnchorCell; to: AnchorCell };
  /** The frame's description (alternative text); the title by default. */
  alt?: string;
  /**
   * Whether it prints with the sheet (default true): `fPrintsWithSheet="0"` when false, so a
   * sheet that prints the chart's image can leave the editable chart off the page. The schema's
   * flag, which Excel reads; LibreOffice 7.4's PDF export was seen to print such a chart anyway.
   */
  print?: boolean;
}

/** The sheet whose cells a chart plots. */
export function dataSheet(chart: NativeChart): string {
  return chart.dataSheet ?? chart.sheet;
}
