import { http } from './api';

// Downloads a file from a URL handed out by the API (e.g. an invoice export link).
export async function downloadFile(fileUrl: string, fileName: string): Promise<void> {
  const res = await http.get<Blob>(fileUrl, { responseType: 'blob' });
  const href = URL.createObjectURL(res.data);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.click();
  URL.revokeObjectURL(href);
}
