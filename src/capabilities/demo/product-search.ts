import { Category, Product } from './demo.types';

export interface ProductSearch {
  query: string;
  /** null or absent: every category (optional arguments may be sent as null). */
  category?: Category | null;
  inStockOnly?: boolean | null;
}

/** `*` lists every product (narrow it with the filters). */
export const MATCH_ALL = '*';

/**
 * Products whose SKU, name or category contain every word of the query
 * (case-insensitive; a trailing plural "s" is forgiven, so "jackets" finds
 * "Jacket"), then the category and in-stock filters. Catalog order is kept.
 */
export function searchProducts(products: readonly Product[], search: ProductSearch): Product[] {
  const words =
    search.query.trim() === MATCH_ALL
      ? []
      : search.query.toLowerCase().split(/\s+/).filter(Boolean);
  return products.filter(
    (product) =>
      (search.category == null || product.category === search.category) &&
      (!search.inStockOnly || product.stock > 0) &&
      words.every((word) => matches(product, word)),
  );
}

function matches(product: Product, word: string): boolean {
  const haystack = `${product.sku} ${product.name} ${product.category}`.toLowerCase();
  if (haystack.includes(word)) return true;
  return word.length > 3 && word.endsWith('s') && haystack.includes(word.slice(0, -1));
}
