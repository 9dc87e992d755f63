'use client';

/**
 * Downloads the first <svg> inside `container` as a PNG at 2x: the SVG is serialized with its
 * computed text styles inlined, drawn on a white canvas and saved. Entirely client-side.
 */
export async function downloadChartPng(container: HTMLElement, filename: string): Promise<void> {
  const svg = container.querySelector('svg.recharts-surface') ?? container.querySelector('svg');
  if (!svg) throw new Error('no chart to export');
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.setAttribute('font-family', getComputedStyle(container).fontFamily || 'sans-serif');
  const title = container.querySelector('[data-chart-title]')?.textContent ?? '';
  const xml = new XMLSerializer().serializeToString(clone);
  const url = URL.createObjectURL(new Blob([xml], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('could not render the chart'));
      img.src = url;
    });
    const scale = 2;
    const pad = title ? 28 : 8;
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil((height + pad) * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height + pad);
    if (title) {
      ctx.fillStyle = '#0f172a';
      ctx.font = '600 13px ui-sans-serif, system-ui, sans-serif';
      ctx.fillText(title, 8, 18);
    }
    ctx.drawImage(img, 0, pad, width, height);
    const a = document.createElement('a');
    a.href = canvas.toDataURL('image/png');
    a.download = filename.endsWith('.png') ? filename : `${filename}.png`;
    a.click();
  } finally {
    URL.revokeObjectURL(url);
  }
}
