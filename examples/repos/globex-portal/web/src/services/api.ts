import axios, { type AxiosRequestConfig } from 'axios';

export const http = axios.create({
  baseURL: import.meta.env.VITE_API_URL,
  timeout: 15_000,
  withCredentials: true,
});

export const ApiService = {
  async get<T>(path: string, config?: AxiosRequestConfig): Promise<T> {
    const res = await http.get<T>(path, config);
    return res.data;
  },

  async post<T>(path: string, body?: unknown, config?: AxiosRequestConfig): Promise<T> {
    const res = await http.post<T>(path, body, config);
    return res.data;
  },

  async put<T>(path: string, body?: unknown): Promise<T> {
    const res = await http.put<T>(path, body);
    return res.data;
  },

  async delete(path: string): Promise<void> {
    await http.delete(path);
  },
};
