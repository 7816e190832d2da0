using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using Newtonsoft.Json.Linq;

namespace Serbench.TypeGen
{
    /// <summary>
    /// The C# of one types file: the classes and enums (namespace ns), and a static class
    /// (Serbench.Generated.cls) with the conversions from and to Canon's form, the
    /// handwritten row's writers and readers, and the TypedModel that lists the messages.
    /// </summary>
    public sealed class Emitter
    {
        const string H = "global::Serbench.Harness.";
        const string G = "global::System.Collections.Generic.";
        const string ContractNamespace = "http://schemas.datacontract.org/2004/07/Serbench.Model";

        readonly Source source;
        readonly string ns;
        readonly string cls;
        readonly JObject named;
        readonly Dictionary<string, List<Field>> fields = new Dictionary<string, List<Field>>();
        readonly Dictionary<string, string> typeIds = new Dictionary<string, string>();

        // Members of object a property may not hide (a warning, and warnings fail the build).
        static readonly string[] ObjectMembers = { "Equals", "GetHashCode", "GetType", "ToString", "Finalize", "MemberwiseClone", "ReferenceEquals" };

        sealed class Field
        {
            public string Key;
            public string Type;
            public string Prop;
        }

        public Emitter(Source source, string ns, string cls)
        {
            this.source = source;
            this.ns = ns;
            this.cls = cls;
            named = source.Types["types"] as JObject ?? new JObject();
            var typeTaken = new HashSet<string>();
            foreach (JProperty p in named.Properties())
            {
                string id = Naming.Ident(p.Name);
                while (!typeTaken.Add(id.TrimStart('@')))
                    id += "_";
                typeIds[p.Name] = id;
            }
            foreach (JProperty p in named.Properties())
            {
                var record = p.Value["record"] as JArray;
                if (record == null)
                    continue;
                var list = new List<Field>();
                var taken = new HashSet<string>(ObjectMembers) { typeIds[p.Name] };
                bool kvp = SeedLayouts.IsKeyValuePair(source, p.Name);
                foreach (JArray f in record)
                {
                    string prop = kvp ? (list.Count == 0 ? "Key" : "Value") : Naming.Ident((string)f[0]);
                    while (!taken.Add(prop))
                        prop += "_";
                    list.Add(new Field { Key = (string)f[0], Type = (string)f[1], Prop = prop });
                }
                fields[p.Name] = list;
            }
        }

        static string Inner(string type, string prefix)
        {
            return type.StartsWith(prefix, StringComparison.Ordinal) && type.EndsWith(">", StringComparison.Ordinal)
                ? type.Substring(prefix.Length, type.Length - prefix.Length - 1)
                : null;
        }

        bool IsEnum(string t)
        {
            return named[t] != null && named[t]["enum"] != null;
        }

        bool IsRecord(string t)
        {
            return fields.ContainsKey(t);
        }

        bool IsKvp(string t)
        {
            return IsRecord(t) && SeedLayouts.IsKeyValuePair(source, t);
        }

        string Named(string t)
        {
            if (named[t] == null)
                throw new FormatException(source.TypesPath + ": unknown type " + t);
            return "global::" + ns + "." + typeIds[t];
        }

        /// <summary>The suffix of a record's conversion and layout methods.</summary>
        string Method(string t)
        {
            Named(t);
            return typeIds[t].TrimStart('@');
        }

        bool IsValue(string t)
        {
            switch (t)
            {
                case "int32": case "uint32": case "int64": case "uint64": case "bool": case "float64": case "float32":
                case "timestamp_ms": case "bigint":
                    return true;
            }
            return IsEnum(t) || IsKvp(t);
        }

        /// <summary>The C# type of a types.json type.</summary>
        string Cs(string t)
        {
            string i;
            if ((i = Inner(t, "optional<")) != null)
                return IsValue(i) ? Cs(i) + "?" : Cs(i);
            if ((i = Inner(t, "list<")) != null)
                return G + "List<" + Cs(i) + ">";
            if ((i = Inner(t, "map<string,")) != null)
                return G + "Dictionary<string, " + Cs(i) + ">";
            switch (t)
            {
                case "int32": return "int";
                case "uint32": return "uint";
                case "int64": return "long";
                case "uint64": return "ulong";
                case "bigint": return "global::System.Numerics.BigInteger";
                case "bool": return "bool";
                case "string": return "string";
                case "float64": return "double";
                case "float32": return "float";
                case "bytes": return "byte[]";
                case "timestamp_ms": return "global::System.DateTime";
                case "any": case "null": return "object";
            }
            if (IsKvp(t))
                return G + "KeyValuePair<" + Cs(fields[t][0].Type) + ", " + Cs(fields[t][1].Type) + ">";
            return Named(t);
        }

        /// <summary>An expression converting x (Canon's form) to the C# type.</summary>
        string From(string t, string x, int d)
        {
            string i, c = "c" + d;
            if ((i = Inner(t, "optional<")) != null)
                return H + "Conv." + (IsValue(i) ? "OptV" : "Opt") + "(" + x + ", " + c + " => " + From(i, c, d + 1) + ")";
            if ((i = Inner(t, "list<")) != null)
                return H + "Conv.List(" + x + ", " + c + " => " + From(i, c, d + 1) + ")";
            if ((i = Inner(t, "map<string,")) != null)
                return H + "Conv.Map(" + x + ", " + c + " => " + From(i, c, d + 1) + ")";
            switch (t)
            {
                case "int32": return H + "Conv.I32(" + x + ")";
                case "uint32": return H + "Conv.U32(" + x + ")";
                case "int64": return H + "Conv.I64(" + x + ")";
                case "uint64": return H + "Conv.U64(" + x + ")";
                case "bigint": return H + "Conv.Big(" + x + ")";
                case "bool": return "(bool)" + x;
                case "string": return "(string)" + x;
                case "float64": return H + "Conv.F64(" + x + ")";
                case "float32": return "(float)" + H + "Conv.F64(" + x + ")";
                case "bytes": return "(byte[])" + x;
                case "timestamp_ms": return H + "Conv.Time(" + x + ")";
                case "any": case "null": return x;
            }
            if (IsEnum(t))
                return "(" + Named(t) + ")" + H + "Conv.I32(" + x + ")";
            return "From_" + Method(t) + "(" + x + ")";
        }

        /// <summary>An object-typed expression converting x (the C# type) to Canon's form.</summary>
        string To(string t, string x, int d)
        {
            string i, v = "v" + d;
            if ((i = Inner(t, "optional<")) != null)
                return IsValue(i) ? "(" + x + " == null ? null : " + To(i, "(" + x + ").Value", d) + ")" : To(i, x, d);
            if ((i = Inner(t, "list<")) != null)
                return H + "Conv.ListC(" + x + ", " + v + " => " + To(i, v, d + 1) + ")";
            if ((i = Inner(t, "map<string,")) != null)
                return H + "Conv.MapC(" + x + ", " + v + " => " + To(i, v, d + 1) + ")";
            switch (t)
            {
                case "int32": case "uint32": case "int64": return "(object)(long)" + x;
                case "uint64": case "bigint": return H + "Canon.Int(" + x + ")";
                case "float32": return "(object)(double)" + x;
                case "timestamp_ms": return "(object)" + H + "Canon.Millis(" + x + ")";
                case "any": return H + "Canon.OfNative(" + x + ")";
                case "bool": case "string": case "float64": case "bytes": case "null": return "(object)" + x;
            }
            if (IsEnum(t))
                return "(object)(long)" + x;
            return "To_" + Method(t) + "(" + x + ")";
        }

        /// <summary>
        /// An expression applying t's float32 widths to x (Canon's form, in place), for the
        /// check's expected value; only called where t reaches float32.
        /// </summary>
        string Expect(string t, string x, int d)
        {
            string i, e = "e" + d;
            if ((i = Inner(t, "optional<")) != null)
                return Expect(i, x, d); // every step below passes null through
            if ((i = Inner(t, "list<")) != null)
                return H + "Conv.Each(" + x + ", " + e + " => " + Expect(i, e, d + 1) + ")";
            if ((i = Inner(t, "map<string,")) != null)
                return H + "Conv.EachValue(" + x + ", " + e + " => " + Expect(i, e, d + 1) + ")";
            if (t == "float32")
                return H + "Conv.F32(" + x + ")";
            return IsRecord(t) ? "Expect_" + Method(t) + "(" + x + ")" : x;
        }

        bool HasFloat32(string t)
        {
            return Reaches(t, "float32", new HashSet<string>());
        }

        /// <summary>Statements writing x in the handwritten layout.</summary>
        string Write(string t, string x, string w, int d)
        {
            string i, v = "v" + d, ww = "w" + d;
            if ((i = Inner(t, "optional<")) != null)
                return H + "Hw." + (IsValue(i) ? "OptV" : "Opt") + "(" + w + ", " + x + ", (" + ww + ", " + v + ") => { " + Write(i, v, ww, d + 1) + " });";
            if ((i = Inner(t, "list<")) != null)
                return H + "Hw.List(" + w + ", " + x + ", (" + ww + ", " + v + ") => { " + Write(i, v, ww, d + 1) + " });";
            if ((i = Inner(t, "map<string,")) != null)
                return H + "Hw.Map(" + w + ", " + x + ", (" + ww + ", " + v + ") => { " + Write(i, v, ww, d + 1) + " });";
            switch (t)
            {
                case "int32": case "uint32": case "int64": case "uint64": case "bool": case "float64": case "float32": case "string":
                    return w + ".Write(" + x + ");";
                case "timestamp_ms": return w + ".Write((" + x + ").ToBinary());";
                case "bytes": return H + "Hw.Bytes(" + w + ", " + x + ");";
                case "null": return "";
            }
            if (IsEnum(t))
                return w + ".Write((" + (EnumSize(t) == 1 ? "byte" : "int") + ")" + x + ");";
            return "Write_" + Method(t) + "(" + w + ", " + x + ");";
        }

        /// <summary>An expression reading the handwritten layout.</summary>
        string Read(string t, string r, int d)
        {
            string i, rr = "r" + d;
            if ((i = Inner(t, "optional<")) != null)
                return H + "Hw." + (IsValue(i) ? "ReadOptV" : "ReadOpt") + "(" + r + ", " + rr + " => " + Read(i, rr, d + 1) + ")";
            if ((i = Inner(t, "list<")) != null)
                return H + "Hw.ReadList(" + r + ", " + rr + " => " + Read(i, rr, d + 1) + ")";
            if ((i = Inner(t, "map<string,")) != null)
                return H + "Hw.ReadMap(" + r + ", " + rr + " => " + Read(i, rr, d + 1) + ")";
            switch (t)
            {
                case "int32": return r + ".ReadInt32()";
                case "uint32": return r + ".ReadUInt32()";
                case "int64": return r + ".ReadInt64()";
                case "uint64": return r + ".ReadUInt64()";
                case "bool": return r + ".ReadBoolean()";
                case "float64": return r + ".ReadDouble()";
                case "float32": return r + ".ReadSingle()";
                case "string": return r + ".ReadString()";
                case "timestamp_ms": return "global::System.DateTime.FromBinary(" + r + ".ReadInt64())";
                case "bytes": return H + "Hw.ReadBytes(" + r + ")";
                case "null": return "(object)null";
            }
            if (IsEnum(t))
                return "(" + Named(t) + ")" + r + (EnumSize(t) == 1 ? ".ReadByte()" : ".ReadInt32()");
            return "Read_" + Method(t) + "(" + r + ")";
        }

        int EnumSize(string t)
        {
            return ((JArray)named[t]["enum"]).Count <= 256 ? 1 : 4;
        }

        /// <summary>Where t reaches a type with no handwritten layout (`any`, `bigint`), or null.</summary>
        string NoLayout(string t, string where, HashSet<string> seen)
        {
            string i = Inner(t, "optional<") ?? Inner(t, "list<") ?? Inner(t, "map<string,");
            if (i != null)
                return NoLayout(i, where, seen);
            if (t == "any" || t == "bigint")
                return "`" + t + "` at " + where;
            if (!IsRecord(t) || !seen.Add(t))
                return null;
            foreach (Field f in fields[t])
            {
                string why = NoLayout(f.Type, t + "." + f.Key, seen);
                if (why != null)
                    return why;
            }
            return null;
        }

        bool Reaches(string t, string target, HashSet<string> seen)
        {
            string i = Inner(t, "optional<") ?? Inner(t, "list<") ?? Inner(t, "map<string,");
            if (i != null)
                return Reaches(i, target, seen);
            if (t == target)
                return true;
            return IsRecord(t) && seen.Add(t) && fields[t].Any(f => Reaches(f.Type, target, seen));
        }

        public string File()
        {
            var sb = new StringBuilder();
            sb.Append("// Generated by tools/typegen from ").Append(source.Builtin ? "datasets/" + source.Name + "/types.json" : "user dataset " + source.Name)
              .Append(" (sha256 ").Append(source.Sha256).Append("). Do not edit.\n");
            sb.Append("#pragma warning disable 1591\n\nnamespace ").Append(ns).Append("\n{\n");
            foreach (JProperty p in named.Properties())
            {
                if (p.Value["enum"] != null)
                    EmitEnum(sb, p.Name, (JArray)p.Value["enum"]);
                else if (IsRecord(p.Name) && !IsKvp(p.Name))
                    EmitClass(sb, p.Name);
            }
            TrimBlankLine(sb);
            sb.Append("}\n\nnamespace Serbench.Generated\n{\n    public static class ").Append(cls).Append("\n    {\n");
            EmitModel(sb);
            foreach (string record in fields.Keys)
                EmitRecord(sb, record);
            TrimBlankLine(sb);
            sb.Append("    }\n}\n");
            return sb.ToString();
        }

        static void TrimBlankLine(StringBuilder sb)
        {
            if (sb.Length > 1 && sb[sb.Length - 1] == '\n' && sb[sb.Length - 2] == '\n')
                sb.Length -= 1;
        }

        void EmitEnum(StringBuilder sb, string name, JArray symbols)
        {
            sb.Append("    [global::System.Serializable]\n    public enum ").Append(typeIds[name]).Append("\n    {\n");
            var taken = new HashSet<string>();
            for (int k = 0; k < symbols.Count; k++)
            {
                string sym = Naming.Ident((string)symbols[k]);
                while (!taken.Add(sym))
                    sym += "_";
                sb.Append("        ").Append(sym).Append(" = ").Append(k).Append(",\n");
            }
            sb.Append("    }\n\n");
        }

        void EmitClass(StringBuilder sb, string name)
        {
            bool contract = !SeedLayouts.PlainSerializable(source);
            sb.Append("    [global::System.Serializable]\n");
            if (contract)
                sb.Append("    [global::System.Runtime.Serialization.DataContract(Name = ").Append(Naming.Quote(name)).Append(", Namespace = \"").Append(ContractNamespace).Append("\")]\n");
            sb.Append("    public class ").Append(typeIds[name]).Append("\n    {\n");
            int order = 0;
            foreach (Field f in fields[name])
            {
                if (contract)
                    sb.Append("        [global::System.Runtime.Serialization.DataMember(Name = ").Append(Naming.Quote(f.Key)).Append(", Order = ").Append(order++).Append(")]\n");
                sb.Append("        public ").Append(Cs(f.Type)).Append(' ').Append(f.Prop).Append(" { get; set; }\n").Append(contract ? "\n" : "");
            }
            TrimBlankLine(sb);
            sb.Append("    }\n\n");
        }

        void EmitModel(StringBuilder sb)
        {
            JToken message = source.Types["message"];
            var messages = new List<KeyValuePair<string, string>>();
            if (message.Type == JTokenType.Object)
            {
                foreach (JProperty p in ((JObject)message).Properties())
                    messages.Add(new KeyValuePair<string, string>(p.Name, (string)p.Value));
            }
            else
            {
                messages.Add(new KeyValuePair<string, string>(source.Builtin ? source.Name : "", (string)message));
            }
            sb.Append("        public static ").Append(H).Append("TypedModel Model()\n        {\n            return new ").Append(H).Append("TypedModel\n            {\n");
            sb.Append("                Source = ").Append(Naming.Quote(source.Name)).Append(", Builtin = ").Append(source.Builtin ? "true" : "false")
              .Append(", Sha256 = \"").Append(source.Sha256).Append("\",\n");
            sb.Append("                Messages = new ").Append(G).Append("Dictionary<string, ").Append(H).Append("TypedMessage>\n                {\n");
            for (int k = 0; k < messages.Count; k++)
                sb.Append("                    { ").Append(Naming.Quote(messages[k].Key)).Append(", Message").Append(k).Append("() },\n");
            sb.Append("                },\n            };\n        }\n\n");
            for (int k = 0; k < messages.Count; k++)
            {
                string t = messages[k].Value, cs = Cs(t);
                string noLayout = NoLayout(t, "$", new HashSet<string>());
                sb.Append("        static ").Append(H).Append("TypedMessage Message").Append(k).Append("()\n        {\n");
                sb.Append("            return new ").Append(H).Append("TypedMessage\n            {\n");
                sb.Append("                TypeExpr = ").Append(Naming.Quote(t)).Append(",\n");
                sb.Append("                Root = typeof(").Append(cs).Append("),\n");
                sb.Append("                FromCanon = c => ").Append(From(t, "c", 0)).Append(",\n");
                sb.Append("                ToCanon = o => ").Append(To(t, "((" + cs + ")o)", 0)).Append(",\n");
                if (HasFloat32(t))
                    sb.Append("                Expect = c => ").Append(Expect(t, "c", 0)).Append(",\n");
                if (noLayout == null)
                {
                    sb.Append("                Write = (w, o) => { ").Append(Write(t, "((" + cs + ")o)", "w", 0)).Append(" },\n");
                    sb.Append("                Read = r => ").Append(Read(t, "r", 0)).Append(",\n");
                }
                else
                {
                    sb.Append("                HandwrittenNotApplicable = ").Append(Naming.Quote("handwritten: no positional binary layout for " + noLayout)).Append(",\n");
                }
                if (Reaches(t, "any", new HashSet<string>()))
                    sb.Append("                KnownTypes = new[] { typeof(").Append(G).Append("List<object>), typeof(").Append(G)
                      .Append("Dictionary<string, object>), typeof(global::System.Numerics.BigInteger), typeof(byte[]) },\n");
                sb.Append("            };\n        }\n\n");
            }
        }

        void EmitRecord(StringBuilder sb, string record)
        {
            string id = Method(record), cs = Cs(record);
            List<Field> fs = fields[record];
            bool kvp = IsKvp(record);
            sb.Append("        static ").Append(cs).Append(" From_").Append(id).Append("(object c)\n        {\n");
            sb.Append("            var d = (").Append(G).Append("Dictionary<string, object>)c;\n");
            if (kvp)
            {
                sb.Append("            return new ").Append(cs).Append("(").Append(From(fs[0].Type, H + "Conv.Field(d, " + Naming.Quote(fs[0].Key) + ")", 0))
                  .Append(", ").Append(From(fs[1].Type, H + "Conv.Field(d, " + Naming.Quote(fs[1].Key) + ")", 0)).Append(");\n        }\n\n");
            }
            else
            {
                sb.Append("            if (d == null)\n                return null;\n            return new ").Append(cs).Append("\n            {\n");
                foreach (Field f in fs)
                    sb.Append("                ").Append(f.Prop).Append(" = ").Append(From(f.Type, H + "Conv.Field(d, " + Naming.Quote(f.Key) + ")", 0)).Append(",\n");
                sb.Append("            };\n        }\n\n");
            }
            sb.Append("        static object To_").Append(id).Append("(").Append(cs).Append(" v)\n        {\n");
            if (!kvp)
                sb.Append("            if (v == null)\n                return null;\n");
            sb.Append("            return new ").Append(G).Append("Dictionary<string, object>\n            {\n");
            foreach (Field f in fs)
                sb.Append("                { ").Append(Naming.Quote(f.Key)).Append(", ").Append(To(f.Type, "v." + f.Prop, 0)).Append(" },\n");
            sb.Append("            };\n        }\n\n");
            if (HasFloat32(record))
            {
                sb.Append("        static object Expect_").Append(id).Append("(object c)\n        {\n");
                sb.Append("            var d = (").Append(G).Append("Dictionary<string, object>)c;\n");
                sb.Append("            if (d == null)\n                return null;\n");
                int k = 0;
                foreach (Field f in fs.Where(f => HasFloat32(f.Type)))
                {
                    sb.Append("            ").Append(H).Append("Conv.Update(d, ").Append(Naming.Quote(f.Key)).Append(", f").Append(k)
                      .Append(" => ").Append(Expect(f.Type, "f" + k, 0)).Append(");\n");
                    k++;
                }
                sb.Append("            return d;\n        }\n\n");
            }
            if (NoLayout(record, record, new HashSet<string>()) != null)
                return;
            sb.Append("        static void Write_").Append(id).Append("(global::System.IO.BinaryWriter w, ").Append(cs).Append(" v)\n        {\n");
            foreach (Field f in fs)
            {
                string s = Write(f.Type, "v." + f.Prop, "w", 0);
                if (s.Length > 0)
                    sb.Append("            ").Append(s).Append('\n');
            }
            sb.Append("        }\n\n");
            sb.Append("        static ").Append(cs).Append(" Read_").Append(id).Append("(global::System.IO.BinaryReader r)\n        {\n");
            if (kvp)
            {
                sb.Append("            return new ").Append(cs).Append("(").Append(Read(fs[0].Type, "r", 0)).Append(", ").Append(Read(fs[1].Type, "r", 0)).Append(");\n");
            }
            else
            {
                sb.Append("            return new ").Append(cs).Append("\n            {\n");
                foreach (Field f in fs)
                    sb.Append("                ").Append(f.Prop).Append(" = ").Append(Read(f.Type, "r", 0)).Append(",\n");
                sb.Append("            };\n");
            }
            sb.Append("        }\n\n");
        }

        public static string Index(List<string> classes)
        {
            var sb = new StringBuilder("// Generated by tools/typegen: every typed model of this build. Do not edit.\n\nnamespace Serbench.Generated\n{\n");
            sb.Append("    public static class Index\n    {\n        public static readonly global::Serbench.Harness.TypedModel[] All =\n        {\n");
            foreach (string c in classes)
                sb.Append("            ").Append(c).Append(".Model(),\n");
            sb.Append("        };\n    }\n}\n");
            return sb.ToString();
        }
    }
}
