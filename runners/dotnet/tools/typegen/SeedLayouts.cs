using Newtonsoft.Json.Linq;

namespace Serbench.TypeGen
{
    /// <summary>
    /// What types.json cannot say about the seed's own .NET types, which the built-in rows
    /// keep so that their sizes and checks stay the seed's (`serbench reference`).
    /// </summary>
    public static class SeedLayouts
    {
        /// <summary>
        /// The seed's classes were [Serializable] with no data-contract attributes, so the
        /// DataContract serializers wrote their backing fields ("&lt;id&gt;k__BackingField"),
        /// which S5's published sizes (149 MB XML, 47 MB JSON, 183 MB NetDataContract) are.
        /// User datasets get [DataContract]/[DataMember] with the field's key as its name.
        /// </summary>
        public static bool PlainSerializable(Source s)
        {
            return s.Builtin;
        }

        /// <summary>
        /// The seed's pairs were KeyValuePair&lt;K, V&gt; (S5's, whose read-only Key/Value
        /// XmlSerializer silently drops: the seed's NG row), not a class of two properties: a
        /// built-in record of exactly the fields `key` and `value` is one. By shape, so that no
        /// dataset is named here.
        /// </summary>
        public static bool IsKeyValuePair(Source s, string record)
        {
            var fields = s.Types["types"]?[record]?["record"] as JArray;
            return s.Builtin && fields != null && fields.Count == 2 && (string)fields[0][0] == "key" && (string)fields[1][0] == "value";
        }
    }
}
