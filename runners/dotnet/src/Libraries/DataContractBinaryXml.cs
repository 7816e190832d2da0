using System.Runtime.Serialization;
using System.Xml;
using Serbench.Harness;

namespace Serbench.Libraries
{
    /// <summary>
    /// DataContractSerializer through XmlDictionaryWriter.CreateBinaryWriter (.NET Binary XML,
    /// [MC-NBFX], no dictionary), the seed's "DataContractSerializer (binary XML)".
    /// </summary>
    public sealed class DataContractBinaryXml : Serializer
    {
        public override string Name { get { return "datacontractserializer-binary"; } }
        public override string Format { get { return "nbfx"; } }
        public override string Library { get { return "DataContractSerializer + XmlDictionaryWriter.CreateBinaryWriter"; } }
        public override string Version { get { return Describe.PlatformVersion(typeof(DataContractSerializer)); } }
        public override string[] Labels { get { return new[] { "binary", "schemaless", "reflective", "copying-decode", "map-layout" }; } }

        public override Codec Bind(DatasetSpec spec)
        {
            var d = new DataContractSerializer(spec.RootType);
            return new StreamCodec(
                (o, s) =>
                {
                    using (XmlDictionaryWriter w = XmlDictionaryWriter.CreateBinaryWriter(s, null, null, false))
                    {
                        d.WriteObject(w, o);
                        w.Flush();
                    }
                },
                s =>
                {
                    using (XmlDictionaryReader r = XmlDictionaryReader.CreateBinaryReader(s, XmlDictionaryReaderQuotas.Max))
                        return d.ReadObject(r);
                });
        }
    }
}
