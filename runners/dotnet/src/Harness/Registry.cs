using System.Collections.Generic;
using System.Linq;
using Serbench.Libraries;

namespace Serbench.Harness
{
    /// <summary>Every serializer of this runner: adding a library is one file plus one line here.</summary>
    public static class Registry
    {
        public static readonly List<Serializer> All = new List<Serializer>
        {
            new Noop(),
            new Memcpy(),
            new Handwritten(),
            new BinaryFormatterLib(),
            new XmlSerializerLib(),
            new DataContractXml(),
            new DataContractBinaryXml(),
            new DataContractJson(),
            new DataContractJsonBinary(),
            new NetDataContract(),
            new NetDataContractBinary(),
            new JsonNet(),
            new JsonNetBson(),
            new JsonNetDynamic(),
            new JsonNetBsonDynamic(),
        };

        public static Serializer Find(string name)
        {
            return All.FirstOrDefault(s => s.Name == name);
        }
    }
}
