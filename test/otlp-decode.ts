import protobuf from 'protobufjs';

// An OTLP logs request in protobuf, decoded by protobufjs (not the OpenTelemetry serializer that
// guard encodes with) from the messages of opentelemetry/proto/collector/logs/v1/logs_service.proto
// and the protos it names, written here by their field numbers. The object it gives has the shape of
// OTLP's JSON encoding (camelCase names, 64-bit numbers as strings), so a test reads both alike.

const anyValue = {
  oneofs: {
    value: {
      oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'],
    },
  },
  fields: {
    stringValue: { type: 'string', id: 1 },
    boolValue: { type: 'bool', id: 2 },
    intValue: { type: 'int64', id: 3 },
    doubleValue: { type: 'double', id: 4 },
    arrayValue: { type: 'ArrayValue', id: 5 },
    kvlistValue: { type: 'KeyValueList', id: 6 },
    bytesValue: { type: 'bytes', id: 7 },
  },
};

const root = protobuf.Root.fromJSON({
  nested: {
    ExportLogsServiceRequest: { fields: { resourceLogs: { rule: 'repeated', type: 'ResourceLogs', id: 1 } } },
    ResourceLogs: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    Resource: {
      fields: {
        attributes: { rule: 'repeated', type: 'KeyValue', id: 1 },
        droppedAttributesCount: { type: 'uint32', id: 2 },
      },
    },
    ScopeLogs: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
        schemaUrl: { type: 'string', id: 3 },
      },
    },
    InstrumentationScope: {
      fields: {
        name: { type: 'string', id: 1 },
        version: { type: 'string', id: 2 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 3 },
        droppedAttributesCount: { type: 'uint32', id: 4 },
      },
    },
    LogRecord: {
      fields: {
        timeUnixNano: { type: 'fixed64', id: 1 },
        observedTimeUnixNano: { type: 'fixed64', id: 11 },
        severityNumber: { type: 'int32', id: 2 },
        severityText: { type: 'string', id: 3 },
        body: { type: 'AnyValue', id: 5 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 6 },
        droppedAttributesCount: { type: 'uint32', id: 7 },
        flags: { type: 'fixed32', id: 8 },
        traceId: { type: 'bytes', id: 9 },
        spanId: { type: 'bytes', id: 10 },
        eventName: { type: 'string', id: 12 },
      },
    },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    AnyValue: anyValue,
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
  },
});
const request = root.lookupType('ExportLogsServiceRequest');

const OPTIONS = { longs: String, enums: Number, defaults: false } as const;

/** The object as OTLP's JSON encoding writes it; the counts of dropped attributes, 0 and absent from guard's JSON, left out. */
function asJson(message: protobuf.Message): unknown {
  return JSON.parse(
    JSON.stringify(request.toObject(message, OPTIONS), (key, value: unknown) =>
      key === 'droppedAttributesCount' && value === 0 ? undefined : value,
    ),
  );
}

/** A protobuf `ExportLogsServiceRequest`, as OTLP's JSON encoding writes it. */
export function decodeLogsRequest(bytes: Uint8Array): unknown {
  return asJson(request.decode(bytes));
}

/**
 * A JSON logs request as protobuf can carry it: what proto3 cannot tell from absent (an empty list,
 * a zero time) is left out, as decodeLogsRequest leaves it out.
 */
export function asProtobufCarries(json: unknown): unknown {
  return asJson(request.fromObject(json as Record<string, unknown>));
}
