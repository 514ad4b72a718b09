#!/usr/bin/env python3
"""Generates APXProtobuf's golden fixtures with Python's protobuf (an independent
implementation of the proto3 JSON mapping and the wire format).

Run from the repository root:

    pip install protobuf grpcio-tools
    python3 scripts/protobuf-fixtures/generate.py

Writes into Tests/APXProtobufTests/Fixtures/:
  apxtest.protoset         FileDescriptorSet of apxtest.proto with its imports
  reflection_files.json    the same files serialized one by one, in reverse
                           dependency order and without json_name, as a
                           reflection server may answer
  golden.json              messages: Python's JSON (MessageToDict) and bytes
  inputs.json              alternative JSON spellings Python's Parse accepts,
                           with the bytes Python makes of them
  rejects.json             JSON Python's Parse rejects
"""

import base64
import importlib
import json
import math
import os
import subprocess
import sys
import tempfile

import grpc_tools
from google.protobuf import descriptor_pb2, json_format

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "Tests", "APXProtobufTests", "Fixtures")


def compile_proto(tmp):
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    protoset = os.path.join(OUT, "apxtest.protoset")
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{HERE}", f"-I{include}",
         "--include_imports", f"--descriptor_set_out={protoset}", f"--python_out={tmp}",
         "apxtest.proto"],
        check=True)
    sys.path.insert(0, tmp)
    return protoset, importlib.import_module("apxtest_pb2")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        protoset, pb = compile_proto(tmp)
        from google.protobuf import (any_pb2, duration_pb2, struct_pb2,
                                     timestamp_pb2, wrappers_pb2 as w)

        E = pb.Everything
        golden = []

        def case(name, msg, extra_bytes=b""):
            wire = msg.SerializeToString(deterministic=True) + extra_bytes
            parsed = type(msg)()
            parsed.ParseFromString(wire)
            as_dict = json_format.MessageToDict(parsed)
            text = json.dumps(as_dict)
            reparsed = json_format.Parse(text, type(msg)())
            golden.append({
                "name": name,
                "type": msg.DESCRIPTOR.full_name,
                "json": as_dict,
                "json_defaults": json_format.MessageToDict(
                    parsed, always_print_fields_with_no_presence=True),
                "json_proto_names": json_format.MessageToDict(
                    parsed, preserving_proto_field_name=True),
                "hex": wire.hex(),
                "reencoded_hex": reparsed.SerializeToString(deterministic=True).hex(),
            })

        case("empty", E())
        case("scalars", E(f_double=1.5, f_float=0.25, f_int32=42, f_int64=1234567890123,
                          f_uint32=7, f_uint64=9, f_sint32=-3, f_sint64=-4, f_fixed32=5,
                          f_fixed64=6, f_sfixed32=-7, f_sfixed64=-8, f_bool=True,
                          f_string="hello", f_bytes=b"\x00\x01\x02", color=pb.COLOR_RED))
        case("integer_extremes", E(
            f_int32=-1, f_int64=2**63 - 1, f_uint32=2**32 - 1, f_uint64=2**64 - 1,
            f_sint32=-2**31, f_sint64=-2**63, f_fixed32=2**32 - 1, f_fixed64=2**64 - 1,
            f_sfixed32=-2**31, f_sfixed64=-2**63,
            packed_int32=[-2**31, -1, 0, 1, 2**31 - 1],
            packed_sint64=[-2**63, -1, 0, 1, 2**63 - 1]))
        case("integer_extremes_2", E(f_int32=2**31 - 1, f_int64=-2**63, f_sint32=2**31 - 1,
                                     f_sint64=2**63 - 1, f_sfixed64=2**63 - 1))
        case("float_specials", E(
            f_double=math.nan, f_float=math.inf,
            packed_double=[math.inf, -math.inf, math.nan, 5e-324, 1.7976931348623157e308,
                           -0.0, 0.1, 1e16, 1e-5, 123456789.123, 1e15, 0.0001, 100.0,
                           2.5e-7, 1e22, 9007199254740993.0],
            w_double=w.DoubleValue(value=-math.inf), w_float=w.FloatValue(value=math.nan)))
        case("floats", E(f_float=0.1, f_double=-2.2250738585072014e-308,
                         w_float=w.FloatValue(value=1.1754943508222875e-38)))
        case("float_small", E(f_float=1e-45))
        case("float_precise", E(f_float=16777217.0, f_double=0.30000000000000004))
        case("strings", E(f_string="h\u00e9llo \u2713 \U0001D11E \x00 \"quote\" \\ \n\t\x1f",
                          tags=["", "a", "\u65e5\u672c\u8a9e"], opt_string=""))
        case("bytes_all_values", E(f_bytes=bytes(range(256)),
                                   blobs=[b"", b"\xff", b"ab", b"abc", b"\xfb\xff"]))
        child = pb.Nested(label="child", count=2, scores={"x": 1, "y": -2})
        case("nested", E(
            nested=pb.Nested(label="top", count=1, children=[child, pb.Nested()],
                             scores={"a": 1, "b": 0}),
            nested_list=[pb.Nested(label="one"), pb.Nested(), pb.Nested(count=-5)],
            nested_map={"k1": pb.Nested(label="v1", scores={"deep": 3}),
                        "": pb.Nested(), "k2": pb.Nested(children=[child])}))
        case("maps", E(
            int_map={-1: "neg", 0: "zero", 2**63 - 1: "max", -2**63: "min"},
            bool_map={True: pb.COLOR_RED, False: pb.COLOR_UNSPECIFIED},
            uint_map={2**32 - 1: b"\x00\x01", 0: b""},
            value_map={"n": struct_pb2.Value(number_value=1.5),
                       "s": struct_pb2.Value(string_value="x"),
                       "z": struct_pb2.Value(null_value=0)}))
        case("oneof_text", E(choice_text="picked"))
        case("oneof_number_default", E(choice_number=0))
        case("oneof_nested", E(choice_nested=pb.Nested(label="n")))
        case("oneof_time", E(choice_time=timestamp_pb2.Timestamp(seconds=1, nanos=5)))
        case("optional_defaults", E(opt_int32=0, opt_string="", opt_color=pb.COLOR_UNSPECIFIED))
        case("optional_values", E(opt_int32=-9, opt_string="s", opt_color=pb.COLOR_GREEN))
        e = E(color=pb.COLOR_NEGATIVE, colors=[pb.COLOR_RED, pb.COLOR_NEGATIVE, pb.COLOR_GREEN])
        e.colors.append(5)
        e.opt_color = 7
        case("enums", e)
        case("enum_unknown_singular", E(color=12345))
        case("repeated_unpacked", E(unpacked_int32=[1, -1, 300], unpacked_fixed32=[0, 1, 2**32 - 1]))
        ts = [timestamp_pb2.Timestamp(seconds=s, nanos=n) for s, n in [
            (0, 0), (0, 500000000), (1700000000, 123000), (1700000000, 1),
            (-62135596800, 0), (253402300799, 999999999), (-1, 999999999), (951782400, 0)]]
        case("timestamps", E(times=ts, created_at=timestamp_pb2.Timestamp(seconds=1704067200)))
        for name, s, n in [("duration_negative", -1, -500000000), ("duration_nanos", 0, 1),
                           ("duration_max", 315576000000, 999999999),
                           ("duration_micros", 3, 1000), ("duration_neg_fraction", 0, -1000000)]:
            case(name, E(ttl=duration_pb2.Duration(seconds=s, nanos=n)))
        attrs = struct_pb2.Struct()
        attrs.update({"name": "apx", "count": 3, "ratio": 0.5, "ok": True, "none": None,
                      "list": [1, "two", None, {"deep": [False]}], "obj": {"a": {"b": []}},
                      "empty": {}})
        lv = struct_pb2.ListValue()
        lv.extend([1, "a", None, True, {"k": "v"}, []])
        payload = any_pb2.Any()
        payload.Pack(pb.Nested(label="packed", count=9, scores={"p": 1}))
        pay_ts = any_pb2.Any()
        pay_ts.Pack(timestamp_pb2.Timestamp(seconds=86400))
        pay_dur = any_pb2.Any()
        pay_dur.Pack(duration_pb2.Duration(seconds=2))
        pay_struct = any_pb2.Any()
        pay_struct.Pack(attrs)
        pay_lesson = any_pb2.Any()
        pay_lesson.Pack(pb.Lesson(id="L1", title="Any lesson"))
        pay_any = any_pb2.Any()
        pay_any.Pack(payload)
        case("well_known_types", E(
            created_at=timestamp_pb2.Timestamp(seconds=1704067200, nanos=250000000),
            ttl=duration_pb2.Duration(seconds=1, nanos=500000000),
            attributes=attrs,
            any_value=struct_pb2.Value(string_value="v"),
            list_value=lv,
            null_value=0,
            update_mask={"paths": ["f_int32", "nested.label", "created_at"]},
            nothing={},
            payload=payload,
            payloads=[pay_ts, pay_dur, pay_struct, pay_lesson, pay_any]))
        case("value_kinds", E(any_value=struct_pb2.Value(struct_value=attrs),
                              list_value=struct_pb2.ListValue()))
        case("value_null", E(any_value=struct_pb2.Value(null_value=0)))
        case("value_number", E(any_value=struct_pb2.Value(number_value=3.0)))
        case("value_list", E(any_value=struct_pb2.Value(list_value=lv)))
        case("wrappers", E(
            w_double=w.DoubleValue(value=1.5), w_float=w.FloatValue(value=-0.5),
            w_int64=w.Int64Value(value=-9007199254740993),
            w_uint64=w.UInt64Value(value=18446744073709551615), w_int32=w.Int32Value(value=-5),
            w_uint32=w.UInt32Value(value=4294967295), w_bool=w.BoolValue(value=True),
            w_string=w.StringValue(value="wrapped"), w_bytes=w.BytesValue(value=b"\x01\x02\xfe")))
        case("wrappers_default", E(
            w_double=w.DoubleValue(), w_float=w.FloatValue(), w_int64=w.Int64Value(),
            w_uint64=w.UInt64Value(), w_int32=w.Int32Value(), w_uint32=w.UInt32Value(),
            w_bool=w.BoolValue(), w_string=w.StringValue(), w_bytes=w.BytesValue()))
        case("far_and_renamed", E(far_away=7, renamed="custom json name"))
        case("defaults_set_explicitly", E(f_int32=0, f_string="", f_bool=False, f_double=0.0,
                                          color=pb.COLOR_UNSPECIFIED, nested=pb.Nested()))
        unknown = (varint(999 << 3 | 0) + varint(300)
                   + varint(1000 << 3 | 2) + varint(3) + b"abc"
                   + varint(1001 << 3 | 5) + b"\x01\x02\x03\x04"
                   + varint(1002 << 3 | 1) + b"\x01\x02\x03\x04\x05\x06\x07\x08"
                   + varint(1003 << 3 | 3) + varint(1 << 3 | 0) + varint(5) + varint(1003 << 3 | 4))
        case("unknown_fields", E(f_int32=1, f_string="known"), extra_bytes=unknown)
        lesson = pb.Lesson(
            id="lesson-42", title="Dynamic protobuf in Swift",
            labels=["swift", "protobuf", "grpc"],
            created_at=timestamp_pb2.Timestamp(seconds=1717171717, nanos=123000000),
            metadata={"level": "advanced", "lang": "en"},
            sections=[pb.Lesson.Section(heading="Intro", body="Why dynamic?", minutes=5),
                      pb.Lesson.Section(heading="Wire", body="Varints and tags", minutes=12)],
            status=pb.Lesson.STATUS_PUBLISHED, view_count=9007199254740993, score=4.75)
        case("lesson", lesson)
        case("create_lesson_request", pb.CreateLessonRequest(lesson=lesson))

        # Alternative JSON spellings: what Python's Parse accepts, and the bytes it makes.
        inputs = []

        def accept(name, text, type_name="Everything"):
            msg = json_format.Parse(text, getattr(pb, type_name)())
            inputs.append({"name": name, "type": "apxtest.v1." + type_name, "input": text,
                           "hex": msg.SerializeToString(deterministic=True).hex()})

        accept("proto_field_names", '{"f_int32": 5, "f_string": "x", "nested_list": [{"label": "a"}], "opt_int32": 0}')
        accept("int64_as_numbers", '{"fInt64": -123, "fUint64": 18446744073709551615, "fSint64": "-9223372036854775808", "fFixed64": "5"}')
        accept("integers_as_strings_and_exponents", '{"fInt32": "42", "fUint32": 1e3, "fSint32": -2.0, "packedInt32": ["1", 2, 3.0e0]}')
        accept("enum_numbers", '{"color": 2, "colors": [1, "COLOR_GREEN", 7], "optColor": -1}')
        accept("bytes_url_safe_unpadded", '{"fBytes": "-_8", "blobs": ["AQ", "AQI=", "+/8=", "_-4"]}')
        accept("nulls_mean_default", '{"fInt32": null, "nested": null, "fString": null, "tags": null, "intMap": null, "createdAt": null, "anyValue": null, "nullValue": null, "payload": null}')
        accept("float_strings", '{"fDouble": "NaN", "fFloat": "-Infinity", "packedDouble": ["1.5", 2, "Infinity", -0.0], "wDouble": "1e3"}')
        accept("map_keys", '{"intMap": {"-5": "a", "7": "b"}, "boolMap": {"true": "COLOR_RED", "false": 1}, "uintMap": {"10": "AA=="}}')
        accept("timestamp_offsets", '{"createdAt": "2024-01-01T10:00:00+02:00", "times": ["1970-01-01T00:00:00.1Z", "2000-02-29T23:59:59.123456-01:30", "1969-12-31T23:59:59.999999999Z"]}')
        accept("durations", '{"ttl": "-0.000001s"}')
        accept("duration_plain", '{"ttl": "100s"}')
        accept("field_mask", '{"updateMask": "fInt32,nested.label,a.bC"}')
        accept("field_mask_empty", '{"updateMask": ""}')
        accept("any_wkt_value", '{"payload": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "3s"}, "payloads": [{"@type": "type.googleapis.com/google.protobuf.Struct", "value": {"a": 1}}, {"value": [1, 2], "@type": "type.googleapis.com/google.protobuf.ListValue"}]}')
        accept("any_message_type_last", '{"payload": {"label": "x", "count": 3, "@type": "type.googleapis.com/apxtest.v1.Nested"}}')
        accept("any_empty", '{"payload": {}}')
        accept("empty_message", '{"nothing": {}}')
        accept("wrappers_from_strings", '{"wInt64": "12", "wUint32": "4", "wBool": false, "wString": "", "wFloat": "NaN"}')
        accept("value_forms", '{"anyValue": [1, {"x": null}, "s", true], "valueMap": {"a": null, "b": {"c": [[]]}}, "listValue": [null]}')
        accept("oneof_with_null_sibling", '{"choiceText": "t", "choiceNumber": null}')
        accept("json_name_and_custom", '{"customName": "c", "farAway": -1}')
        accept("renamed_by_proto_name", '{"renamed": "c"}')
        accept("lesson_proto_names", '{"id": "x", "created_at": "2024-06-01T00:00:00Z", "view_count": "12", "sections": [{"minutes": 3}], "status": "STATUS_DRAFT", "metadata": {"k": "v"}}', "Lesson")

        # JSON Python's Parse rejects; apx must reject it too.
        rejects = []

        def reject(name, text, type_name="Everything"):
            try:
                json_format.Parse(text, getattr(pb, type_name)())
            except json_format.ParseError as err:
                rejects.append({"name": name, "type": "apxtest.v1." + type_name, "input": text,
                                "python_error": str(err)})
                return
            raise SystemExit(f"expected Python to reject {name}: {text}")

        reject("two_oneof_members", '{"choiceText": "a", "choiceNumber": 1}')
        reject("unknown_field", '{"noSuchField": 1}')
        reject("string_for_bool", '{"fBool": "true"}')
        reject("int32_out_of_range", '{"fInt32": 2147483648}')
        reject("uint32_negative", '{"fUint32": -1}')
        reject("fraction_for_int", '{"fInt32": 1.5}')
        reject("unknown_enum_name", '{"color": "COLOR_PURPLE"}')
        reject("null_in_repeated", '{"tags": ["a", null]}')
        reject("number_for_string", '{"labels": [3]}', "Lesson")
        reject("bad_timestamp", '{"createdAt": "yesterday"}')
        reject("bad_duration", '{"ttl": "5 minutes"}')
        reject("object_for_int", '{"fInt32": {}}')
        reject("string_for_message", '{"nested": "x"}')
        reject("any_unknown_type", '{"payload": {"@type": "type.googleapis.com/no.Such"}}')
        reject("int64_out_of_range", '{"fInt64": "9223372036854775808"}')
        reject("float_out_of_range", '{"fFloat": 1e39}')
        reject("bad_map_key", '{"intMap": {"x": "a"}}')
        reject("nested_type_error", '{"nested": {"children": [{"count": "x"}]}}')

        fds = descriptor_pb2.FileDescriptorSet()
        with open(protoset, "rb") as f:
            fds.ParseFromString(f.read())
        reflection = []
        for file in reversed(fds.file):
            stripped = descriptor_pb2.FileDescriptorProto()
            stripped.CopyFrom(file)
            for m in stripped.message_type:
                strip_json_names(m)
            reflection.append({"name": stripped.name, "hex": stripped.SerializeToString().hex()})

    write("golden.json", golden)
    write("inputs.json", inputs)
    write("rejects.json", rejects)
    write("reflection_files.json", reflection)
    print(f"wrote {len(golden)} golden cases, {len(inputs)} inputs, {len(rejects)} rejects to {OUT}")


def strip_json_names(message):
    for field in message.field:
        field.ClearField("json_name")
    for nested in message.nested_type:
        strip_json_names(nested)


def write(name, value):
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
