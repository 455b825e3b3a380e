/** Protobuf wire types (https://protobuf.dev/programming-guides/encoding/). */
export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_GROUP_START = 3;
export const WIRE_GROUP_END = 4;
export const WIRE_I32 = 5;

/** Bytes that are not a well-formed protobuf message: truncated, too long, or of the wrong shape. */
export class ProtobufWireError extends Error {
  override readonly name = 'ProtobufWireError';
}

/**
 * Reads one protobuf message field by field, with no schema: `next()` moves
 * to a field, the caller reads or `skip()`s its value. Every read is checked
 * against the end of the message, so truncated or hostile bytes throw
 * ProtobufWireError instead of reading past it. Shared by the bench's OTLP
 * sink (counting spans) and the tests' OTLP receiver (decoding them).
 */
export class ProtobufReader {
  /** The current field's number, after `next()` returned true. */
  field = 0;
  /** The current field's wire type, after `next()` returned true. */
  wireType = 0;
  private pos: number;
  private readonly end: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    end = bytes.length,
  ) {
    this.pos = start;
    this.end = end;
  }

  /** Moves to the next field; false at the end of the message. */
  next(): boolean {
    if (this.pos >= this.end) return false;
    const tag = this.uint();
    if (tag > 0xffff_ffff) throw new ProtobufWireError(`tag ${tag} is out of range`);
    this.field = tag >>> 3;
    this.wireType = tag & 7;
    if (this.field === 0) throw new ProtobufWireError('field number 0 is not allowed');
    if (this.wireType > WIRE_I32) {
      throw new ProtobufWireError(`unknown wire type ${this.wireType} (field ${this.field})`);
    }
    return true;
  }

  /** An int64 varint (negative numbers are ten bytes of two's complement). */
  int64(): bigint {
    this.expect(WIRE_VARINT);
    let value = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw truncated('varint');
      const byte = this.bytes[this.pos++];
      value |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if (byte < 0x80) return BigInt.asIntN(64, value);
    }
    throw new ProtobufWireError('varint longer than 10 bytes');
  }

  /** A varint field as a number (an enum, a bool, a count). */
  varint(): number {
    this.expect(WIRE_VARINT);
    return this.uint();
  }

  fixed64(): bigint {
    this.expect(WIRE_I64);
    return this.view(8).getBigUint64(0, true);
  }

  double(): number {
    this.expect(WIRE_I64);
    return this.view(8).getFloat64(0, true);
  }

  /** A length-delimited field's bytes, sharing the message's memory. */
  bytesValue(): Uint8Array {
    this.expect(WIRE_LEN);
    const start = this.lengthDelimited();
    return this.bytes.subarray(start, this.pos);
  }

  string(): string {
    return Buffer.from(this.bytesValue()).toString('utf8');
  }

  /** A reader of the embedded message in the current field. */
  message(): ProtobufReader {
    this.expect(WIRE_LEN);
    const start = this.lengthDelimited();
    return new ProtobufReader(this.bytes, start, this.pos);
  }

  /** Steps over the current field's value, whatever its type (groups included, without recursion). */
  skip(): void {
    if (this.wireType !== WIRE_GROUP_START) {
      this.skipValue(this.wireType);
      return;
    }
    const open = [this.field];
    while (open.length > 0) {
      if (!this.next()) throw truncated('group');
      if (this.wireType === WIRE_GROUP_START) open.push(this.field);
      else if (this.wireType !== WIRE_GROUP_END) this.skipValue(this.wireType);
      else if (open.pop() !== this.field) {
        throw new ProtobufWireError(`group end ${this.field} does not close the open group`);
      }
    }
  }

  /** A varint as a number (tags, lengths, enums), refused past 2^53 rather than rounded. */
  private uint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw truncated('varint');
      const byte = this.bytes[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (value > Number.MAX_SAFE_INTEGER) throw new ProtobufWireError('varint too large');
        return value;
      }
      scale *= 128;
    }
    throw new ProtobufWireError('varint longer than 10 bytes');
  }

  private skipValue(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        for (let i = 0; i < 10; i++) {
          if (this.pos >= this.end) throw truncated('varint');
          if (this.bytes[this.pos++] < 0x80) return;
        }
        throw new ProtobufWireError('varint longer than 10 bytes');
      case WIRE_I64:
        this.advance(8);
        return;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_I32:
        this.advance(4);
        return;
      default:
        throw new ProtobufWireError(`unexpected group end (field ${this.field})`);
    }
  }

  /** Reads a length and steps over that many bytes; returns where they start. */
  private lengthDelimited(): number {
    const length = this.uint();
    const start = this.pos;
    this.advance(length);
    return start;
  }

  private advance(count: number): void {
    if (count > this.end - this.pos) throw truncated(`${count}-byte value`);
    this.pos += count;
  }

  private view(size: number): DataView {
    const start = this.pos;
    this.advance(size);
    return new DataView(this.bytes.buffer, this.bytes.byteOffset + start, size);
  }

  private expect(wireType: number): void {
    if (this.wireType !== wireType) {
      throw new ProtobufWireError(
        `field ${this.field} has wire type ${this.wireType}, expected ${wireType}`,
      );
    }
  }
}

function truncated(what: string): ProtobufWireError {
  return new ProtobufWireError(`truncated message: ends inside a ${what}`);
}
