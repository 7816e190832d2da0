using System.Xml.Serialization;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// XmlSerializer with its defaults (indented UTF-8 XML). It writes public read/write
    /// members only, so the read-only Key/Value of S5's KeyValuePair pairs are silently lost:
    /// the seed's NG, which the check reports with the first lost path.
    /// </summary>
    public sealed class XmlSerializerLib : Serializer
    {
        public override string Name { get { return "xmlserializer"; } }
        public override string Format { get { return "xml"; } }
        public override string Library { get { return "XmlSerializer"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(XmlSerializer)); } }
        public override string[] Labels { get { return new[] { "text", "schemaless", "reflective", "copying-decode", "map-layout" }; } }

        public override string NotApplicable(string dataset)
        {
            if (dataset == "one-mb-dict")
                return "XmlSerializer cannot serialize a Dictionary<string,string> (it implements IDictionary): NotSupportedException; store the map as a list of entries to use it";
            if (dataset == "click-maps")
                return "XmlSerializer cannot serialize ClickMap.clicks, a Dictionary<string,Click> (it implements IDictionary): InvalidOperationException/NotSupportedException; store the clicks as a list to use it";
            return null;
        }

        public override Codec Bind(DatasetSpec spec)
        {
            var x = new XmlSerializer(spec.RootType);
            return new StreamCodec((o, s) => x.Serialize(s, o), s => x.Deserialize(s));
        }
    }
}
