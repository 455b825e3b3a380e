/** Whether an inputResponses entry has the shape of a result of the method it answers. */
export function validInputResponse(method: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const result = value as Record<string, unknown>;
  switch (method) {
    case 'elicitation/create':
      return (
        result.action === 'accept' || result.action === 'decline' || result.action === 'cancel'
      );
    case 'sampling/createMessage':
      return (
        typeof result.role === 'string' &&
        typeof result.content === 'object' &&
        result.content !== null
      );
    case 'roots/list':
      return Array.isArray(result.roots);
    default:
      return true;
  }
}
